# fechado — `make help` lists the targets. Go comes from the machine; everything else is pinned
# in go.mod (staticcheck is built from it into bin/) or installed from Debian by the targets
# that need it.

SHELL       := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO        ?= go
BIN       := bin/fechado
FUZZTIME  ?= 30s
BENCHPKGS ?= ./...
# Run apt-get as root: directly when we are root, through sudo otherwise.
SUDO      := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_GET   := DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get -qq -o=Dpkg::Use-Pty=0

.PHONY: help build nats-server test lint demo bench load fuzz test-long clean chromium cc

help: ## list the targets (the default)
	@echo "fechado: make TARGET"
	@awk 'BEGIN { FS = ":.*## " } /^[a-zA-Z_-]+:.*## / { printf "  %-10s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)
	@echo "Variables: FUZZTIME=$(FUZZTIME) (per fuzz target), BENCHPKGS=$(BENCHPKGS)"

# The table console's offline mode runs the rules package in the browser: go generate ./console
# compiles it to WebAssembly (console/assets/offline/, not committed) before the binary embeds it.
build: ## build bin/fechado (with the console's offline rules, compiled to WebAssembly)
	$(GO) generate ./console
	$(GO) build -o $(BIN) ./cmd/fechado

# nats-server is a dependency in go.mod: the module builds it at the pinned version, offline from
# the module cache (docs/deployment.md, section 2), which `go install …@version` cannot.
nats-server: ## build bin/nats-server from the version go.mod pins (docs/deployment.md)
	$(GO) build -o bin/nats-server github.com/nats-io/nats-server/v2

# staticcheck is pinned in go.mod; it is built once into bin/ (without the race detector: it is a
# tool, not code under test) and run from there.
STATICCHECK := bin/staticcheck
$(STATICCHECK): go.mod go.sum
	GOFLAGS= $(GO) build -o $@ honnef.co/go/tools/cmd/staticcheck

lint: $(STATICCHECK) ## gofmt and goimports checks, go vet and staticcheck (pinned in go.mod): before a push
	@$(GOFMT_CHECK)
	@$(GOIMPORTS_CHECK)
	@echo "==> go vet $(LINTFLAGS)"
	@GOFLAGS="$(LINTFLAGS)" $(GO) vet ./...
	@echo "==> staticcheck $(LINTFLAGS)"
	@GOFLAGS="$(LINTFLAGS)" $(STATICCHECK) ./...

GOFILES = $$(find . -name '*.go' -not -path './.git/*' -not -path '*/testdata/*')
GOFMT_CHECK = echo "==> gofmt"; \
	files=$$(gofmt -l $(GOFILES)); \
	if [ -n "$$files" ]; then echo "not gofmt-ed (run gofmt -w on them):"; echo "$$files"; exit 1; fi
# goimports (a tool of go.mod) also groups the imports: the standard library's apart.
GOIMPORTS_CHECK = echo "==> goimports"; \
	files=$$($(GO) tool goimports -l $(GOFILES)); \
	if [ -n "$$files" ]; then echo "not goimports-ed (run go tool goimports -w on them):"; echo "$$files"; exit 1; fi

# The browser tests (web, console) add a line each to BROWSER_LOG, "ran" or "skipped" (no
# Chromium: internal/browsertest says where it looks); make test and make test-long print them.
# A package whose result go test took from its cache adds none.
BROWSER_LOG := $(CURDIR)/bin/browser-tests.log
BROWSER_SUMMARY = if [ -s $(BROWSER_LOG) ]; then \
		echo "==> browser tests: $$(grep -c '^ran' $(BROWSER_LOG) || true) ran, $$(grep -c '^skipped' $(BROWSER_LOG) || true) skipped"; \
		sort -k2,3 $(BROWSER_LOG) | awk -F '\t' '{ printf "    %-7s %s %s%s\n", $$1, $$2, $$3, ($$1 == "skipped" ? ": " $$4 : "") }'; \
	else echo "==> browser tests: none ran this time (web and console results came from go test's cache)"; fi

# The packages whose code runs goroutines over state they share (the log and its recorder, the
# projector, the web server and the table console, the commands that serve them, the benchmark
# runner): make test runs their tests under the race detector, and the rules' test of the
# evaluator cache, which tables share (the rest of rules' suite walks every five-card hand, slow
# under the detector, and single-threaded). The others are single-threaded, and some of their
# tests count allocations, which the detector's instrumentation would add to; their code runs under the detector too inside these packages'
# tests (the live auditor of serve, for one), and make test-long runs every package under it.
# cmd first: go test starts the packages in the order given, and cmd/fechado's tests are the
# longest under the detector (about 60 s); started last, the race pass waited for them alone.
RACEPKGS  ?= ./cmd/... ./recorder/... ./projector/... ./web/... ./console/...
# Within RACEPKGS, the tests named by RACEFREE run without the detector: the browser tests, where the
# time is Chromium's and a page's requests come one at a time; the integrity analyses, whole
# rooms of simulated hands read by one goroutine; the projector's tests named FromAFile, which
# project a file in the test's one goroutine (CatchUp over a FileSource: the follower's goroutine
# and the log's are the other tests', TestRunFollowsTheLog, TestKillAndResume and
# TestGroupedCommitsExactlyOnceAcrossAStop among them), where the detector has nothing to watch;
# cmd/fechado's comparison of every path's verdict over whole logs (its concurrent recording
# runs under the detector in a test of its own), and its audit of a log of 65,537 hands (the
# workers' under the detector: the other logs). Under the detector they took half of make test's
# race pass and more (BENCHMARKS.md); make test-long still runs them under it, and the code they
# drive is tested under it by the other tests of these packages. Also without it (BENCHMARKS.md,
# nineteenth session: 16 s of the race lane's CPU for 3 s in the plain lane): web's tests that
# read the shared tournament day (PlayerSessions, TournamentAPI, TournamentAt,
# OpenAPIEveryOperation), GETs of a day posted and projected once, which the plain lane builds
# anyway for TestBrowserLists (the server's concurrent posts and projection are web's other
# tests', TestConcurrentHands and TestEachHandAuditedOnce among them); cmd/fechado's audit --all
# --workers 1 against 3 (AllWorkersPrintAsOne: the workers over a stored log run under the
# detector in the other tests' audit --all on two workers: TestAuditFileAndStoreAgree and
# TestDamagedStoreStopsTheReaders), export to hand histories and import back
# (ExportHandHistories: format conversions in one goroutine over the stored log, which the other
# export tests read under the detector) and passwd's bcrypt hash (PasswdHash: one goroutine); and
# cmd/fechado's audit of an 11.6 MB room whose mapping the spread's reader copies ahead
# (FetchedLog: 6.5 s under the detector, 0.8 s without; the spread's workers run under it in the
# other audits of several workers, and the copies are logfile's, whose tests run in the plain lane);
# import's refusal of inputs over its limits (ImportRefuses: files of 16 to 32 MiB read, or not,
# in one goroutine, 1.5 s each under the detector, 0.4 s without); and the commands' refusal of
# the 8 MB line nested 4,000,000 deep, in bounded memory (LineRefused, RefusesDeepLine: each
# command's reader in one goroutine, 3.4 s under the detector, 1.0 s without).
RACEFREE  ?= Browser|Integrity|FromAFile|OneVerdictByEveryPath|FarOn|PlayerSessions|TournamentAPI|TournamentAt|OpenAPIEveryOperation|AllWorkersPrintAsOne|ExportHandHistories|PasswdHash|FetchedLog|ImportRefuses|LineRefused|RefusesDeepLine
# The packages that have such tests: the others would build a second test binary to run nothing.
# Their second run skips go test's vet pass, which the race run made on the same packages. Longest
# first: console's and web's browser tests (about 40 s each) start the plain lane.
RACEFREEPKGS ?= ./console/... ./web/... ./cmd/... ./projector/...

# make lint runs go vet with the race detector's flags (LINTFLAGS), so that it builds the very
# packages make test's race tests run: the large dependencies (nats-server, chromedp, the SQLite C
# amalgamation: most of a build from a cold cache), which only RACEPKGS use, compile once for both.
#
# The C code of cgo (above all SQLite's amalgamation, the largest single compilation of the build,
# which nothing else can run beside) is compiled at -O1 for make test instead of cgo's default
# "-O2 -g": the same source, about half the compile time, and still fast enough for the tests.
# Binaries (make build, make demo, make bench) keep the default. TEST_CGO_CFLAGS= restores it.
# make lint uses the same flags, so that it reuses make test's build and the other way round.
TEST_CGO_CFLAGS ?= -O1
#
# make test must stay within four minutes on two cores, and from a cold cache the analyses that
# need every dependency analysed too cost a large share of its CPU (BENCHMARKS.md, make test):
# staticcheck, and go vet's full set of analyzers, which type-checks every dependency again for
# its facts. make lint runs both, and make test-long. make test keeps go test's own vet pass (the
# analyzers go test runs by default: printf, tests, errorsas and the other high-confidence ones).
lint: LINTFLAGS := -race
test lint: export CGO_CFLAGS := $(if $(TEST_CGO_CFLAGS),$(TEST_CGO_CFLAGS),$(CGO_CFLAGS))
# make test links its test binaries without DWARF (-ldflags=-w): about 50 of them, and the debug
# information was half of each link's CPU (a race binary of web: 3.8 s against 2.2 s). Panics,
# failures and the race detector's reports still name files and lines (they read the binary's own
# tables, not DWARF); a debugger wants TEST_LDFLAGS= . go test itself links a binary it only runs
# with -s -w already; the flag counts when TEST_FLAGS asks for the binary (-o, -cpuprofile), which
# makes go test keep the debug information (BENCHMARKS.md, eighteenth session).
TEST_LDFLAGS ?= -w
# -trimpath keeps the folder out of the build cache's keys: a copy of the repository in a new
# folder (.ci/run makes one every run, a second clone) reuses the packages the cache already holds
# instead of compiling every package of the module again, twice (with and without -race).
# -count=1: every test runs, none is taken from go test's cache of results, which a new folder
# would now share.
TEST_FLAGS ?= -trimpath -count=1
# A binary built with the race detector sleeps a second as it exits (the detector's atexit_sleep_ms,
# for reports of other threads, which Go's own reports do not need): once per test binary, and
# once per process some tests start from theirs (the SIGKILL and crash tests).
test test-long: export GORACE := atexit_sleep_ms=0 $(GORACE)
# make test runs two lanes at once, two go test processes, so that both cores stay busy: one after
# the other, each pass left a core idle through its last long package (a third of the wall time,
# BENCHMARKS.md, eighteenth session). The race lane: RACEPKGS under the detector, then the rules'
# evaluator-cache test. The plain lane: the RACEFREE tests, then the other packages. Each lane
# writes to its own file (bin/test-LANE.log) and prints it whole, under a heading, when it ends,
# so that a failure's output never interleaves with the other lane's; make test fails when
# either lane does. Each lane's packages are listed longest first (go test starts them in the
# order given): a long package started last would run alone at the end. Each lane is a process
# group of its own (set -m), which make test ends whole when it is interrupted, and reads nothing
# (a background group that read the terminal would stop).
OTHERFIRST ?= ./events
# RACETAIL: packages of neither list that the race lane tests (without the detector) once its race
# pass is done, so that the two lanes end together: the plain lane had 19 s more to do
# (BENCHMARKS.md, nineteenth session, make test side by side), and 14 s more again on 2026-12-06
# (race 222 s, plain 236 s), when sim (18 s in the plain lane) moved here.
RACETAIL ?= ./audit/... ./sim
TEST_LANES := bin/test-race.log bin/test-plain.log
test: export FECHADO_BROWSER_LOG := $(BROWSER_LOG)
test: cc chromium ## gofmt, then the short suite (-short; the race detector on the concurrent packages; go test's own vet)
	@$(GOFMT_CHECK)
	@mkdir -p bin; rm -f $(BROWSER_LOG) $(TEST_LANES)
	@race() { \
		local rc=0; \
		echo "==> go test -short -race -skip '$(RACEFREE)' $(RACEPKGS)"; \
		$(GO) test -short -race $(TEST_FLAGS) -ldflags='$(TEST_LDFLAGS)' -skip '$(RACEFREE)' -timeout 15m $(RACEPKGS) || rc=1; \
		echo "==> go test -short -race -run Concurrent ./rules/"; \
		$(GO) test -short -race $(TEST_FLAGS) -ldflags='$(TEST_LDFLAGS)' -run Concurrent ./rules/ || rc=1; \
		echo "==> go test -short $(RACETAIL)"; \
		$(GO) test -short $(TEST_FLAGS) -ldflags='$(TEST_LDFLAGS)' -timeout 15m $(RACETAIL) || rc=1; \
		return $$rc; \
	}; \
	plain() { \
		local rc=0 others; \
		echo "==> go test -short -run '$(RACEFREE)' $(RACEFREEPKGS)"; \
		$(GO) test -short -vet=off $(TEST_FLAGS) -ldflags='$(TEST_LDFLAGS)' -run '$(RACEFREE)' -timeout 15m $(RACEFREEPKGS) || rc=1; \
		others=$$($(GO) list $(OTHERFIRST) ./... | grep -vxF -f <($(GO) list $(RACEPKGS) $(RACETAIL))); \
		echo "==> go test -short (the other packages)"; \
		$(GO) test -short $(TEST_FLAGS) -ldflags='$(TEST_LDFLAGS)' -timeout 15m $$others || rc=1; \
		return $$rc; \
	}; \
	lane() { \
		local name=$$1 log=bin/test-$$1.log start=$$SECONDS status=ok; \
		$$name >$$log 2>&1 || status=FAIL; \
		{ flock 9 2>/dev/null || true; echo "==> $$name lane: $$status after $$((SECONDS - start)) s"; cat $$log; } 9>>bin/test.lock; \
		[ $$status = ok ]; \
	}; \
	echo "==> two lanes at once (race, plain): each prints its go test output whole as it ends"; \
	racelane=; plainlane=; \
	trap 'kill -TERM -- $${racelane:+-$$racelane} $${plainlane:+-$$plainlane} 2>/dev/null || true; wait; exit 130' INT TERM; \
	set -m; lane race </dev/null & racelane=$$!; lane plain </dev/null & plainlane=$$!; set +m; \
	rc=0; wait $$racelane || rc=1; wait $$plainlane || rc=1; \
	$(BROWSER_SUMMARY); \
	exit $$rc

# One switch makes a test short: -short. Without it every test runs at full size, the long ones
# too (10,000 simulated hands per preset, every mutation, the cluster through a node's loss).
test-long: export FECHADO_BROWSER_LOG := $(BROWSER_LOG)
test-long: cc chromium lint ## make lint, every test at full size (no -short: the long ones too), then every package under the race detector at -short size
	@mkdir -p bin; rm -f $(BROWSER_LOG)
	@rc=0; \
	echo "==> go test (full size)"; \
	$(GO) test -timeout 60m ./... || rc=1; \
	echo "==> go test -short -race (every package)"; \
	$(GO) test -short -race -timeout 30m ./... || rc=1; \
	$(BROWSER_SUMMARY); \
	exit $$rc

demo: build ## a first look: simulated tables of every preset playing live at http://127.0.0.1:8080
	$(BIN) demo

bench: ## run the benchmarks and write BENCHMARKS.md (internal/benchreport/bench.sh)
	@if [ -x internal/benchreport/bench.sh ]; then \
		./internal/benchreport/bench.sh; \
	else \
		mkdir -p bin; \
		{ echo "# Benchmarks"; echo; \
		  echo "\`make bench\` on $$(date -u +%Y-%m-%d), $$($(GO) version | cut -d' ' -f3-),"; \
		  echo "$$(nproc) CPUs ($$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//'))."; \
		  echo; echo '```'; \
		  $(GO) test -run '^$$' -bench . -benchmem $(BENCHPKGS) | { grep -v '^ok\|^PASS\|no test files' || true; }; \
		  echo '```'; } > bin/BENCHMARKS.md.tmp; \
		mv bin/BENCHMARKS.md.tmp BENCHMARKS.md; cat BENCHMARKS.md; \
	fi

# TABLES (default 100), PACE, DURATION and READERS go to the script through the environment.
load: ## serve on the embedded log in a temporary folder, sim --live TABLES tables against it, print the report (internal/benchreport/load.sh)
	./internal/benchreport/load.sh

fuzz: ## run every Fuzz target of the repository for FUZZTIME each (default 30s)
	@targets=$$(grep -r --include='*_test.go' --exclude-dir=testdata --exclude-dir=.git \
		-o '^func Fuzz[A-Za-z0-9_]*(' . | sed 's/^\(.*\)\/[^/]*_test\.go:func \(Fuzz[A-Za-z0-9_]*\)($$/\1 \2/' | sort); \
	[ -n "$$targets" ] || { echo "no fuzz targets"; exit 1; }; \
	while read -r dir target; do \
		echo "==> $$dir $$target ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 5s "$$dir"; \
	done <<< "$$targets"

clean: ## remove bin/ and the test cache
	rm -rf bin
	$(GO) clean -testcache

cc: ## install a C compiler (cgo: go-sqlite3, the race detector) when missing
	@command -v cc >/dev/null 2>&1 || { \
		echo "==> installing gcc (apt-get)"; \
		$(APT_GET) update && $(APT_GET) install -y gcc libc6-dev >/dev/null; }

chromium: ## install Debian's chromium (browser tests) when no browser is found ($$CHROME, /usr/bin/chromium, chromium on PATH)
	@[ -n "$${CHROME:-}" ] || [ -x /usr/bin/chromium ] || command -v chromium >/dev/null || command -v chromium-browser >/dev/null || { \
		echo "==> installing chromium (apt-get)"; \
		{ $(APT_GET) update && $(APT_GET) install -y chromium >/dev/null; } || \
		echo "==> chromium could not be installed: the browser tests will skip"; }
