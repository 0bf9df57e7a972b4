#!/usr/bin/env bash
# Figures of the shared store on GOROOT/src against a local versitygw:
# push and pull time and throughput, the time from a push landing to
# `snap serve --sync 1s` answering from it, and tool latency during the
# swap against the steady state. One run; the machine is noisy.
set -euo pipefail
cd "$(dirname "$0")/../e2e"
go test -run '^$' -bench StoreGOROOT -benchtime 1x -timeout 30m -v .
