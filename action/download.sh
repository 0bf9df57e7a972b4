#!/usr/bin/env bash
# download.sh VERSION DEST: fetches the released snap binary for this
# runner's OS and architecture into DEST (DEST.exe on Windows), and checks
# it against the release's SHA256SUMS before making it executable. Nothing
# is left at DEST when the check fails. VERSION is a tag (v1.2.3) or
# latest. $SNAP_RELEASE_URL replaces GitHub's release downloads (a mirror).
set -euo pipefail
version=$1
dest=$2
os=$(uname -s | tr '[:upper:]' '[:lower:]')
case $os in mingw* | msys* | cygwin* | windows_nt) os=windows ;; esac
case $(uname -m) in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) echo "snap: no release for $(uname -m)" >&2; exit 1 ;;
esac
name="snap-$os-$arch"
if [ "$os" = windows ]; then
	name+=".exe"
	dest="${dest%.exe}.exe"
fi
releases=${SNAP_RELEASE_URL:-https://github.com/graphsnap/snap/releases}
if [ "$version" = latest ]; then
	base="$releases/latest/download"
else
	base="$releases/download/$version"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
curl -fsSL --retry 3 -o "$tmp/$name" "$base/$name"
curl -fsSL --retry 3 -o "$tmp/SHA256SUMS" "$base/SHA256SUMS"
want=$(awk -v f="$name" '$2 == f || $2 == "*"f {print $1}' "$tmp/SHA256SUMS")
if command -v sha256sum >/dev/null; then
	got=$(sha256sum "$tmp/$name" | cut -d' ' -f1)
else
	got=$(shasum -a 256 "$tmp/$name" | cut -d' ' -f1)
fi
if [ -z "$want" ] || [ "$want" != "$got" ]; then
	echo "snap $version: $name does not match SHA256SUMS (want ${want:-nothing}, got $got)" >&2
	exit 1
fi
mkdir -p "$(dirname "$dest")"
install -m 0755 "$tmp/$name" "$dest"
echo "snap: $version ($name, sha256 $got)" >&2
