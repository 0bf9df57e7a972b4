#!/usr/bin/env bash
# run.sh SNAP [PEER]: the answer-size battery of bench/answers on its four
# repositories. Each is cloned at its pinned tag into $ANSWERS_WORK
# (default ~/.cache/snap-answers; from $ANSWERS_MIRRORS/OWNER+NAME/repo
# when that bare clone exists, else from GitHub), indexed with SNAP and,
# when PEER (a peer MCP server's binary) is given, with the peer too.
set -euo pipefail
snap=$(realpath "${1:?usage: run.sh SNAP [PEER]}")
peer=${2:-}
[ -n "$peer" ] && peer=$(realpath "$peer")
work=${ANSWERS_WORK:-$HOME/.cache/snap-answers}
mirrors=${ANSWERS_MIRRORS:-$HOME/.cache/snap-localize}
mkdir -p "$work"
repos=()
while read -r battery name tag; do
	dir="$work/$battery"
	if [ ! -d "$dir/.git" ]; then
		src="https://github.com/$name"
		[ -d "$mirrors/${name/\//+}/repo" ] && src="$mirrors/${name/\//+}/repo"
		echo "cloning $name $tag" >&2
		git clone -q "$src" "$dir"
	fi
	git -C "$dir" checkout -q --force "$tag"
	git -C "$dir" clean -qfdx
	(cd "$dir" && "$snap" index -q . >/dev/null)
	if [ -n "$peer" ]; then
		(cd "$dir" && CODEGRAPH_TELEMETRY=0 "$peer" init . >/dev/null 2>&1)
	fi
	repos+=("$battery=$dir")
done <<'LIST'
go spf13/cobra v1.8.1
python psf/requests v2.34.2
typescript colinhacks/zod v4.4.3
java google/gson gson-parent-2.14.0
LIST
cd "$(dirname "$0")/../.."
args=(-snap "$snap" -repos "$(IFS=,; echo "${repos[*]}")")
[ -n "$peer" ] && args+=(-peer "$peer")
go run ./bench/answers "${args[@]}"
