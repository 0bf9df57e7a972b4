# The README's commands. `make test` is what CI runs.
GO ?= go

.PHONY: build test bench-goroot

build:
	$(GO) build -o bin/snap ./cmd/snap

test:
	$(GO) vet ./...
	$(GO) test -count=1 ./...
	cd e2e && $(GO) vet ./... && $(GO) test -count=1 ./...

# Figures on GOROOT/src: full index vs the bare-parse floor, snapshot size,
# and the cold start of `snap serve` to its first answer.
bench-goroot: build
	./scripts/bench-goroot.sh
