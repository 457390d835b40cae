# The two commands a newcomer needs: `make run` and `make test`. Both install
# what they need (Go modules, npm packages, Debian's chromium for browser tests).

GO      ?= go
NPM     ?= npm
ADDR    ?= 127.0.0.1:8080
DATA    ?= ./data
BIN     := bin/portal

WEB_SOURCES := $(shell find web/src web/public -type f 2>/dev/null) web/index.html web/vite.config.ts web/tsconfig.json web/package.json internal/password/common-passwords.txt

.PHONY: $(BIN) run build test test-go test-web test-e2e fuzz measure-journey bench bench-go audit outdated web deps chromium clean

run: build
	$(BIN) serve --demo --addr $(ADDR) --data $(DATA)

build: $(BIN)

# Go's build cache makes this cheap when nothing changed.
$(BIN): web/dist/index.html
	$(GO) build -o $(BIN) ./cmd/portal

web: web/dist/index.html

web/node_modules/.package-lock.json: web/package-lock.json web/package.json
	cd web && $(NPM) ci --no-audit --no-fund
	@touch $@

web/dist/index.html: web/node_modules/.package-lock.json $(WEB_SOURCES)
	cd web && $(NPM) run build

# The Go tests (mostly waiting on databases) run beside the app's checks
# (mostly computing); the browser journeys, which take both cores, after.
# Started beside the Go tests instead (measured once, on a loaded machine), the journeys made the
# store tests four times slower (Chromium runs its browser and GPU processes at nice -8 as root,
# ahead of PostgreSQL), and the whole run took longer.
# Output is kept per target so the two do not interleave.
# bin/portal is built first: the Go tests of cmd/portal run it too (PORTAL_TEST_BIN) rather than
# link a second copy.
test: web/dist/index.html chromium $(BIN)
	$(MAKE) --no-print-directory -j2 --output-sync=target test-go test-web
	$(MAKE) --no-print-directory test-e2e

# Tests keep their temporary databases and data folders in memory when the
# machine has /dev/shm: an fsync there costs nothing, and no test is about
# surviving a power cut (the crash tests kill processes, which loses nothing
# the kernel holds).
TEST_TMPDIR ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo $${TMPDIR:-/tmp})

# The store tests also run against PostgreSQL when PORTAL_TEST_DATABASE_URL
# is set (.ci/run sets it). The store's tests on both databases take about
# five minutes on an idle 2-core machine; the limit leaves room for a busy one.
test-go: web/dist/index.html $(BIN)
	$(GO) vet ./...
	TMPDIR=$(TEST_TMPDIR) PORTAL_TEST_BIN=$(CURDIR)/$(BIN) $(GO) test -count=1 -timeout 20m ./...

# Every Go fuzz target (found by `go test -list '^Fuzz' ./...`), one at a
# time, each for FUZZTIME (15s unless set): `make fuzz FUZZTIME=1m`. The
# plain `go test` of test-go already runs each target's seeds and its
# testdata/fuzz corpus; this searches for new failing inputs, which go test
# keeps under the package's testdata/fuzz/ (docs/operations.md).
FUZZTIME ?= 15s
fuzz: web/dist/index.html
	TMPDIR=$(TEST_TMPDIR) FUZZTIME=$(FUZZTIME) ./scripts/fuzz.sh

test-web: web/dist/index.html
	cd web && $(NPM) test

test-e2e: $(BIN) chromium
	cd web && TMPDIR=$(TEST_TMPDIR) $(NPM) run e2e

# Times the whole journey in the browser at a modelled human pace and writes the Welcome step's
# estimate model (internal/portal/journey-timing.json); then rebuild to embed it.
# docs/operations.md, "The Welcome step's time estimate", explains it.
measure-journey: $(BIN) chromium
	cd web && PORTAL_MEASURE_JOURNEY=1 PORTAL_E2E_WORKERS=1 TMPDIR=$(TEST_TMPDIR) npx playwright test e2e/journey-timing.spec.ts
	$(GO) build -o $(BIN) ./cmd/portal

# Browser tests drive Debian's chromium; test tools cannot download browsers.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "Installing Debian's chromium for the browser tests"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# The load generator: the real binary on SQLite (and PostgreSQL when
# PORTAL_TEST_DATABASE_URL is set) against a floor measured in the same run;
# writes docs/benchmarks.md. A few minutes; BENCH_FLAGS=-quick for a 30-second
# smoke. PORTAL_BENCH_POCKETBASE names a PocketBase binary to measure beside it
# (docs/benchmarks.md says how to get one).
BENCH_FLAGS ?=
bench: $(BIN)
	$(GO) run ./cmd/bench -portal $(BIN) -out docs/benchmarks.md $(BENCH_FLAGS)

# Speed and memory targets that live in Go benchmarks (docs/security.md names them).
bench-go: web/dist/index.html
	$(GO) test -run '^$$' -bench . -benchmem ./...

# The dependency and static checks: go vet, staticcheck, gosec, npm audit --omit=dev
# (docs/security.md, "Dependencies", explains each finding left). Not part of make test:
# the tools build from the module proxy on first use and take minutes.
audit: web/node_modules/.package-lock.json
	GO=$(GO) scripts/audit.sh

# Lists the Go modules and npm packages that have newer versions; changes nothing.
outdated: web/node_modules/.package-lock.json
	GO=$(GO) scripts/outdated.sh

clean:
	rm -rf bin web/dist
