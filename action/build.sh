#!/usr/bin/env bash
# build.sh DEST: builds snap from the action's source into DEST (DEST.exe
# on Windows) without touching the Go of the job's later steps: the go on
# PATH when it is new enough, else the go.mod's Go downloaded into
# $RUNNER_TEMP for this step alone.
set -euo pipefail
dest=$1
cd "$(dirname "$0")/.."
case $(uname -s) in MINGW* | MSYS* | CYGWIN* | Windows_NT) dest="${dest%.exe}.exe" ;; esac
want=$(awk '$1 == "go" {print $2; exit}' go.mod)
newer() { # newer HAVE WANT: HAVE ≥ WANT as Go versions
	[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}
go=""
if command -v go >/dev/null; then
	have=$(go env GOVERSION 2>/dev/null | sed 's/^go//')
	if [ -n "$have" ] && newer "$have" "$want"; then
		go=$(command -v go)
	fi
fi
if [ -z "$go" ]; then
	os=$(uname -s | tr '[:upper:]' '[:lower:]')
	case $os in mingw* | msys* | cygwin*) os=windows ;; esac
	case $(uname -m) in
	x86_64 | amd64) arch=amd64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) echo "snap: no Go for $(uname -m)" >&2; exit 1 ;;
	esac
	root="${RUNNER_TEMP:-/tmp}/snap-go"
	echo "snap: downloading Go $want for this build only" >&2
	mkdir -p "$root"
	ext=tar.gz
	[ "$os" = windows ] && ext=zip
	curl -fsSL --retry 3 -o "$root/go.$ext" "https://go.dev/dl/go$want.$os-$arch.$ext"
	if [ "$ext" = zip ]; then (cd "$root" && unzip -q go.zip); else tar -xzf "$root/go.$ext" -C "$root"; fi
	go="$root/go/bin/go"
fi
echo "snap: building with $("$go" version)" >&2
mkdir -p "$(dirname "$dest")"
# -trimpath: the build does not depend on where the action was unpacked,
# so an earlier build of the same source in another folder is cached.
CGO_ENABLED=1 "$go" build -trimpath -o "$dest" ./cmd/snap
