#!/bin/sh
# Runs every fuzz target of snap, one after the other, for FUZZTIME each
# (default 10s): the readers of bytes snap does not trust (tables, manifest,
# HEAD.json, store keys and URLs, the stat cache), the MCP inputs (tool arguments,
# cursors, memory names, file paths and resource URIs), the scanner's
# plans against tree-sitter's query cursor (the same extraction from any
# bytes; Go's FuzzExtract also resolves), and the plans' walk over
# tree-sitter's subtrees against its tree cursor, in every grammar.
#
#   scripts/fuzz.sh                 every target, 10s each (about 2.5 minutes)
#   FUZZTIME=5m scripts/fuzz.sh     longer
#   FUZZTIME=5000x scripts/fuzz.sh  5,000 calls each, however long they take
#   scripts/fuzz.sh FuzzReadEdges   the targets named
#
# `make test` counts calls rather than seconds: Go's coordinator can fail a
# duration-bounded run with a bare "context deadline exceeded" and no input
# when its workers are starved at the deadline (go.dev/issue/75804), which a
# loaded CI machine does. A count has no deadline to race. The inputs of the
# corpus (testdata/fuzz and the cache under $(go env GOCACHE)/fuzz) count
# toward it, so a large cached corpus leaves fewer calls for new inputs.
#
# A failure leaves the failing input in the package's testdata/fuzz/FuzzXxx/
# (keep it there: it becomes a regression test) and stops the script.
# Seeds are refreshed by `go test -run 'FuzzSeeds' -update-fuzz-seeds PKG`.
set -eu
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-10s}
GO=${GO:-go}

targets="
./snapshot FuzzReadNodes
./snapshot FuzzReadEdges
./snapshot FuzzReadFiles
./snapshot FuzzReadSources
./snapshot FuzzReadRefs
./snapshot FuzzReadManifest
./snapshot FuzzReadHead
./snapshot FuzzKeys
./snapshot/s3store FuzzParseURL
./indexer FuzzStatCache
./mcp FuzzToolArgs
./mcp FuzzCursor
./mcp FuzzMemoryName
./mcp FuzzFilePath
./indexer/golang FuzzExtract
./indexer/rust FuzzPlan
./indexer/typescript FuzzPlan
./indexer/cfamily FuzzPlan
./indexer/languages FuzzWalk
"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
failed=0
while read -r pkg target; do
	[ -n "$pkg" ] || continue
	if [ $# -gt 0 ]; then
		case " $* " in *" $target "*) ;; *) continue ;; esac
	fi
	echo "== $pkg $target ($FUZZTIME)"
	# Short minimization (100 runs): new coverage is kept whole rather than
	# spending the run shrinking it; a crasher may need `-fuzzminimizetime 30s`.
	if "$GO" test -run '^$' -fuzz "^$target\$" -fuzztime "$FUZZTIME" -fuzzminimizetime 100x "$pkg" >"$log" 2>&1; then
		grep '^fuzz: elapsed' "$log" | tail -n 1
	else
		grep -v '^fuzz: elapsed' "$log"
		failed=1
		break
	fi
done <<EOF
$targets
EOF
exit $failed
