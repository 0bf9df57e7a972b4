#!/usr/bin/env bash
# The GOROOT/src figures in the README, measured in one run on this machine:
# bare tree-sitter parse (the floor) and full index with the same workers,
# snapshot size against source size, and loading the snapshot to a first
# answer. Usage: scripts/bench-goroot.sh [WORKERS]  (after `make build`)
set -euo pipefail
workers=${1:-2}
src=$(go env GOROOT)/src
snap=${SNAP:-./bin/snap}
store=$(mktemp -d)
trap 'rm -rf "$store"' EXIT
timed() { # label, command...: prints wall seconds and peak RSS
	local label=$1; shift
	/usr/bin/time -f "$label: %e s wall, %M KiB peak RSS" "$@" >/dev/null
}
echo "# GOROOT/src with $workers workers ($(go version | cut -d' ' -f3), $(nproc) CPUs)"
timed "floor (walk, read, parse only)" "$snap" index -q --parse-only --workers "$workers" "$src"
timed "full index" "$snap" index -q --workers "$workers" --store "$store" "$src"
dir=$(find "$store" -name manifest.json -printf '%h\n' | head -1)
"$snap" verify "$dir"
src_bytes=$(find "$src" -name '*.go' -size -1M -printf '%s\n' | awk '{s+=$1} END {print s}')
snap_bytes=$(du -sb "$dir" | cut -f1)
nosrc=$(find "$dir" -name '*.parquet' ! -name sources.parquet -printf '%s\n' | awk '{s+=$1} END {print s}')
echo "snapshot: $snap_bytes bytes on disk, $nosrc without sources.parquet; Go source: $src_bytes bytes"
awk -v a="$snap_bytes" -v b="$nosrc" -v s="$src_bytes" 'BEGIN {printf "ratio to source: %.3f with sources, %.3f without\n", a/s, b/s}'
timed "load + first answer (snap query status)" "$snap" query --snapshot "$dir" snap_status
