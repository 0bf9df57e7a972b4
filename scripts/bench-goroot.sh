#!/usr/bin/env bash
# The GOROOT/src figures of docs/performance.md, measured in one run on this machine:
# bare tree-sitter parse (the floor) and full index with the same workers,
# alternated RUNS times (medians reported, machines here are noisy),
# snapshot size against source size, and loading the snapshot to a first
# answer. Usage: scripts/bench-goroot.sh [WORKERS] [RUNS]  (after `make build`)
set -euo pipefail
workers=${1:-2}
runs=${2:-3}
src=$(go env GOROOT)/src
snap=${SNAP:-./bin/snap}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
timed() { # file, command...: appends "wall_seconds peak_kib"
	local out=$1; shift
	/usr/bin/time -o "$out.t" -f "%e %M" "$@" >/dev/null 2>"$out.err" || { cat "$out.err" >&2; return 1; }
	cat "$out.t" >>"$out"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "# GOROOT/src, $workers workers, $runs runs each ($(go version | cut -d' ' -f3), $(nproc) CPUs)"
for i in $(seq "$runs"); do
	timed "$tmp/floor" "$snap" index -q --parse-only --vendored --generated --workers "$workers" "$src"
	rm -rf "$tmp/store"
	timed "$tmp/full" "$snap" index -q --full --vendored --generated --workers "$workers" --store "$tmp/store" "$src"
	dir=$(find "$tmp/store" -name manifest.json -printf '%h\n' | head -1)
	timed "$tmp/load" "$snap" query --snapshot "$dir" snap_status
done
floor=$(cut -d' ' -f1 "$tmp/floor" | median)
full=$(cut -d' ' -f1 "$tmp/full" | median)
echo "floor (walk, read, bare parse): runs $(cut -d' ' -f1 "$tmp/floor" | xargs) s; median $floor s"
echo "full index:                     runs $(cut -d' ' -f1 "$tmp/full" | xargs) s; median $full s; peak RSS $(cut -d' ' -f2 "$tmp/full" | median) KiB"
awk -v a="$full" -v b="$floor" 'BEGIN {printf "full ÷ floor: %.2f\n", a/b}'
"$snap" verify "$dir"
python3 - "$dir/manifest.json" <<'PY' 2>/dev/null || true
import json, sys
m = json.load(open(sys.argv[1]))
print("files %(files)d, nodes %(nodes)d, edges %(edges)d, unresolved %(unresolved)d, parse errors %(parse_errors)d" % m["counts"])
PY
src_bytes=$(find "$src" -name '*.go' -size -1048577c -printf '%s\n' | awk '{s+=$1} END {print s}')
snap_bytes=$(find "$dir" -type f -printf '%s\n' | awk '{s+=$1} END {print s}')
nosrc=$(find "$dir" -name '*.parquet' ! -name sources.parquet -printf '%s\n' | awk '{s+=$1} END {print s}')
echo "snapshot: $snap_bytes bytes, $nosrc without sources.parquet; Go source indexed: $src_bytes bytes"
awk -v a="$snap_bytes" -v b="$nosrc" -v s="$src_bytes" 'BEGIN {printf "snapshot ÷ source: %.2f with sources, %.2f without\n", a/s, b/s}'
echo "load + first answer (snap query snap_status): runs $(cut -d' ' -f1 "$tmp/load" | xargs) s; median $(cut -d' ' -f1 "$tmp/load" | median) s; peak RSS $(cut -d' ' -f2 "$tmp/load" | median) KiB"
