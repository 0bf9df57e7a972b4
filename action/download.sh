#!/usr/bin/env bash
# download.sh VERSION DEST: fetches the released snap binary for this
# runner's OS and architecture and checks it against the release's
# SHA256SUMS before making it executable. Nothing is left at DEST when the
# check fails.
set -euo pipefail
version=$1
dest=$2
os=$(uname -s | tr '[:upper:]' '[:lower:]')
case $(uname -m) in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) echo "snap: no release for $(uname -m)" >&2; exit 1 ;;
esac
name="snap-$os-$arch"
base="https://github.com/graphsnap/snap/releases/download/$version"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
curl -fsSL --retry 3 -o "$tmp/$name" "$base/$name"
curl -fsSL --retry 3 -o "$tmp/SHA256SUMS" "$base/SHA256SUMS"
want=$(awk -v f="$name" '$2 == f || $2 == "*"f {print $1}' "$tmp/SHA256SUMS")
got=$(sha256sum "$tmp/$name" | cut -d' ' -f1)
if [ -z "$want" ] || [ "$want" != "$got" ]; then
	echo "snap $version: $name does not match SHA256SUMS (want ${want:-nothing}, got $got)" >&2
	exit 1
fi
install -m 0755 "$tmp/$name" "$dest"
