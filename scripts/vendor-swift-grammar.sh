#!/bin/sh
# vendor-swift-grammar.sh re-fetches the generated tree-sitter-swift
# parser from npm (the Go module of alex-pinkus/tree-sitter-swift ships
# none), checks the tarball against its pinned integrity and copies the
# parser sources, scanner and headers into indexer/swift/grammar/src.
#
# Usage: scripts/vendor-swift-grammar.sh (from the repository root).
set -eu

version=0.7.1
integrity='sha512-pneKVTuGamaBsqqqfB9BvNQjktzh/0IVPR54jLB5Fq/JTDQwYHd0Wo6pVyZ5jAYpbztzq+rJ/rpL9ruxTmSoKw=='

root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/indexer/swift/grammar"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$tmp" && npm pack --silent "tree-sitter-swift@$version" >/dev/null)
tarball="$tmp/tree-sitter-swift-$version.tgz"
got="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 | tr -d '\n')"
if [ "$got" != "$integrity" ]; then
	echo "vendor-swift-grammar: integrity mismatch: got $got, want $integrity" >&2
	exit 1
fi
tar -xzf "$tarball" -C "$tmp"

rm -rf "$dest/src"
mkdir -p "$dest/src/tree_sitter"
cp "$tmp/package/src/parser.c" "$tmp/package/src/scanner.c" "$dest/src/"
cp "$tmp/package/src/tree_sitter/"*.h "$dest/src/tree_sitter/"
cp "$tmp/package/LICENSE" "$dest/LICENSE"
echo "vendored tree-sitter-swift $version into $dest"
