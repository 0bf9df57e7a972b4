#!/usr/bin/env bash
# release.sh OUT [GOOS/GOARCH ...]: builds snap for each platform (default
# this machine's) into OUT as snap-GOOS-GOARCH (.exe on Windows), then
# writes OUT/SHA256SUMS for every binary in OUT. cgo is on (the grammars
# are C): a cross build takes its C compiler from $CC_GOOS_GOARCH
# (CC_linux_arm64=aarch64-linux-gnu-gcc), else from the usual cross
# compiler's name, else $CC. The version is the tag the checkout is at,
# as go build stamps it.
set -euo pipefail
out=${1:?usage: release.sh OUT [GOOS/GOARCH ...]}
shift
mkdir -p "$out"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("$(go env GOOS)/$(go env GOARCH)")
host="$(go env GOOS)/$(go env GOARCH)"
for t in "${targets[@]}"; do
	os=${t%/*} arch=${t#*/}
	name="snap-$os-$arch"
	[ "$os" = windows ] && name+=".exe"
	var="CC_${os}_${arch}"
	cc=${!var:-}
	if [ -z "$cc" ] && [ "$t" != "$host" ]; then
		case $t in
		linux/arm64) cc=aarch64-linux-gnu-gcc ;;
		linux/amd64) cc=x86_64-linux-gnu-gcc ;;
		windows/amd64) cc=x86_64-w64-mingw32-gcc ;;
		esac
	fi
	cc=${cc:-${CC:-}}
	echo "release: building $name${cc:+ with $cc}" >&2
	vars=(CGO_ENABLED=1 "GOOS=$os" "GOARCH=$arch")
	[ -n "$cc" ] && vars+=("CC=$cc")
	env "${vars[@]}" go build -trimpath -ldflags="-s -w" -o "$out/$name" ./cmd/snap
done
cd "$out"
if command -v sha256sum >/dev/null; then sum=(sha256sum); else sum=(shasum -a 256); fi
"${sum[@]}" snap-* >SHA256SUMS
cat SHA256SUMS >&2
