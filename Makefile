# gdlperf — make targets. Go 1.26 or newer; ../shared beside the repo for the
# corpus tests (they skip without it).
GO ?= go
BIN ?= bin/gdlperf

.PHONY: build install test test-all bench lint fuzz corpus-check propnet-corpus transform-check check-corpus mirror-cache pgo-profile clean

build:
	$(GO) build -o $(BIN) ./cmd/gdlperf

# gdlperf on the PATH: into $(go env GOPATH)/bin (or $GOBIN).
install:
	$(GO) install ./cmd/gdlperf

# The quick tests (README.md; a few minutes on two cores): go test -short
# leaves out the slow corpus, exhaustive and many-game conformance tests,
# or plays fewer of their games.
test:
	$(GO) vet ./...
	$(GO) test -short -count=1 ./...

# Every test, as CI runs them (about 20 minutes on two cores; a package
# may take over go test's default 10 minutes when the machine is busy).
test-all:
	$(GO) vet ./...
	$(GO) test -count=1 -timeout=45m ./...

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' ':!:vendor')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# Fuzz the GDL reader and validator for a while (FUZZTIME=2m by default).
FUZZTIME ?= 2m
fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./engines/gdl/
	$(GO) test -run='^$$' -fuzz=FuzzCheck -fuzztime=$(FUZZTIME) ./engines/gdl/

# The prover plays 3 seeded rollouts of every valid mirrored game (60 s
# budget per game) and lists the games that fail. Long: not part of `test`.
corpus-check:
	GDLPERF_CORPUS=1 $(GO) test -count=1 -timeout=0 -run=TestCorpusRollouts -v ./engines/prover/

# The propnet builds every valid mirrored game, plays 3 seeded rollouts
# against the prover's (60 s budget per game) and one against its full-pass
# twin, and ranks the builds by CPU time; GDLPERF_PROPNET_CORPUS_OUT=FILE
# writes a TSV row per game. Long (about an hour): not part of `test`.
propnet-corpus:
	GDLPERF_PROPNET_CORPUS=1 $(GO) test -count=1 -timeout=0 -run='^TestCorpus$$' -v ./engines/propnet/

# Every rule transform on the twenty panel games, played by the prover and
# the tuple prover against the original (tens of minutes; not in test-all).
transform-check:
	GDLPERF_CORPUS=1 $(GO) test -count=1 -timeout=0 -run=TestPanelGamesStayEquivalent -v ./engines/transform/

# The compiled engine's runtime profile for Go's profile-guided optimization
# (engines/compiled/rt.pgo): run after a change of engines/compiled/rt (even
# a comment line inside a function moves its call sites in the profile's
# terms), with ../shared beside the repo (about two minutes). Two runs'
# profiles differ by about 0.5% in the instructions they save: keep the old
# one unless the runtime changed.
pgo-profile:
	GDLPERF_PGO_OUT=$(CURDIR)/engines/compiled/rt.pgo $(GO) test -count=1 -timeout=30m -run='^TestWritePGOProfile$$' -v ./engines/compiled/

# The ggp.org mirror in ../shared, synced into gdlperf's one game cache
# ($GDLPERF_CACHE, or the user cache folder: the one gdlperf run and check
# read by default; the tests make caches in temporary folders).
SHARED ?= ../shared
mirror-cache: build
	$(BIN) games sync --repo base,dresden --mirror $(SHARED)/gamerepo-mirror

# gdlperf check of every built-in engine against the prover on every valid
# mirrored game (BUDGET per engine, game and method; JOBS pairs at once, each
# about one core). Long: with BUDGET=2s METHODS=trace, three engines take
# about an hour on one core; resumable.
BUDGET ?= 10s
METHODS ?= trace,exhaustive,metamorphic
JOBS ?= 1
check-corpus: mirror-cache
	$(BIN) check --games base,dresden --budget $(BUDGET) --methods $(METHODS) --jobs $(JOBS) --results check-results

clean:
	rm -rf bin .cache
