#!/usr/bin/env bash
# choose.sh: which snap the action runs, written to $GITHUB_OUTPUT.
# version: the release to download — $SNAP_VERSION when set, else the
# ref the action was used at when it names a release (v1.2.3); empty
# means building from the action's source. source: a digest of that
# source, the key of the cached build.
set -euo pipefail
version=${SNAP_VERSION:-}
if [ -z "$version" ] && [[ ${ACTION_REF:-} =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
	version=$ACTION_REF
fi
source=""
if [ -z "$version" ]; then
	cd "$ACTION_PATH"
	if command -v sha256sum >/dev/null; then sum=(sha256sum); else sum=(shasum -a 256); fi
	source=$(find . -type f \( -name '*.go' -o -name '*.c' -o -name '*.h' -o -name '*.scm' -o -name go.mod -o -name go.sum \) \
		-not -path './.git/*' -not -path './e2e/*' -not -path './testdata/*' -not -name '*_test.go' -print0 |
		LC_ALL=C sort -z | xargs -0 "${sum[@]}" | "${sum[@]}" | cut -c1-32)
	echo "snap: building from the action's source (${ACTION_REF:-no ref}, source $source)" >&2
else
	echo "snap: running release $version" >&2
fi
{
	echo "version=$version"
	echo "source=$source"
} >>"$GITHUB_OUTPUT"
