#!/bin/sh
# Makes or updates the bare clones the localization benchmark reads, one
# per repository of corpus.go, at DIR/OWNER+NAME/repo, and checks that each
# holds its pinned head.
set -eu
dir=${1:?usage: fetch.sh DIR}
here=$(dirname "$0")
grep -o 'Name: "[^"]*", Lang: "[^"]*", Head: "[0-9a-f]*"' "$here/corpus.go" |
	sed 's/Name: "\([^"]*\)".*Head: "\([0-9a-f]*\)"/\1 \2/' |
	while read -r name head; do
		repo="$dir/$(echo "$name" | tr / +)/repo"
		if ! git -C "$repo" cat-file -e "$head^{commit}" 2>/dev/null; then
			if [ -d "$repo" ]; then
				git -C "$repo" fetch -q origin
			else
				echo "cloning $name"
				git clone -q --bare "https://github.com/$name" "$repo"
			fi
		fi
		git -C "$repo" cat-file -e "$head^{commit}" || { echo "$name: no commit $head" >&2; exit 1; }
	done
