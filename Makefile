# SelfSound — `make run` builds everything and serves the app; `make test` runs every test.
# Other targets: dev, build, ci, bench, soak, fuzz, fmt, lint, doctor, clean.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
CARGO ?= cargo
NPM ?= npm
FRONTEND := frontend
PG_BASE_URL ?= postgres://postgres@127.0.0.1:5432
PG_ADMIN_URL ?= $(PG_BASE_URL)/postgres

.PHONY: run dev build web web-deps doctor test test-rust test-web test-e2e test-e2e-postgres test-tools garage soak rust-build run-rust-tests run-web-tests run-e2e run-e2e-postgres ci bench fuzz fmt lint clean

## Build the web app and a release binary, then serve on the embedded defaults
## (SQLite and media under ./data, e-mail written to ./data/mail).
run: doctor web
	$(CARGO) build --release -p api --bin selfsound
	./target/release/selfsound serve

## Contributors: a debug server on :8080 and the Vite dev server with hot reload (proxying API
## calls to it) on :5173. Ctrl-C stops both.
dev: doctor web-deps
	$(CARGO) build -p api --bin selfsound
	trap 'kill 0' EXIT; \
	  ./target/debug/selfsound serve & \
	  cd $(FRONTEND) && $(NPM) run dev

build: doctor web
	$(CARGO) build --release -p api --bin selfsound

## What the build needs besides Rust and Node, checked before anything is compiled, with the
## exact Debian/Ubuntu packages to install when something is missing: a C compiler (Rust links
## with it; SQLite and libpq are compiled from source), pkg-config and OpenSSL's headers (libpq
## talks TLS to PostgreSQL). And what the server runs: ffmpeg checks and cleans every video
## (without it the server runs and video posts answer 503), so its absence is a warning, as is
## the SoundFont's (scores then play on the synthesiser alone).
doctor:
	@missing=(); \
	command -v cc >/dev/null 2>&1 || missing+=(build-essential); \
	command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config); \
	{ command -v pkg-config >/dev/null 2>&1 && pkg-config --exists openssl; } || [ -n "$${OPENSSL_DIR:-}" ] || missing+=(libssl-dev); \
	command -v $(CARGO) >/dev/null 2>&1 || { echo "*** Rust is missing: install it with rustup (https://rustup.rs)"; exit 1; }; \
	command -v node >/dev/null 2>&1 || { echo "*** Node.js 20.19 or later is missing"; exit 1; }; \
	if [ $${#missing[@]} -gt 0 ]; then \
	  echo "*** The build needs: $${missing[*]}"; \
	  echo "*** On Debian or Ubuntu: sudo apt-get install -y $${missing[*]}"; \
	  exit 1; \
	fi; \
	command -v $${SELFSOUND_FFMPEG:-ffmpeg} >/dev/null 2>&1 || \
	  echo "*** ffmpeg is missing: the server will run, but video posts answer 503 until it is installed (sudo apt-get install -y ffmpeg)"; \
	[ -f "$${SELFSOUND_SOUNDFONT:-/usr/share/sounds/sf3/MuseScore_General_Lite.sf3}" ] || \
	  echo "*** The SoundFont is missing: scores will play on the synthesiser only (sudo apt-get install -y musescore-general-soundfont-small)"

web-deps:
	@if [ ! -d $(FRONTEND)/node_modules ] || [ $(FRONTEND)/package-lock.json -nt $(FRONTEND)/node_modules/.package-lock.json ]; then \
	  cd $(FRONTEND) && $(NPM) ci --no-audit --no-fund; \
	fi

## The production build of the web app; it prints the first load's JavaScript (gzipped) and
## fails when it is over budget.
web: web-deps
	cd $(FRONTEND) && $(NPM) run build

## Every test: Rust (one build, every crate's tests; a failure names its crate), the web app's
## unit tests and type check, then the browser journeys against the real binary. With CI=true
## a missing PostgreSQL, Chromium or test server fails instead of being skipped.
##
## On two cores the work is arranged so that waiting overlaps computing: installing the test
## servers and the web app's packages and building the web app run beside the Rust build; the
## Rust tests (mostly waiting on databases) and the short browser journey on PostgreSQL beside
## the web app's unit tests; then the browser journeys on SQLite on their own (two Playwright
## workers; they slow down by a third beside anything else), then the scale-out journey (two
## processes behind Caddy, ~30 s). `--output-sync` keeps each part's output together.
PARALLEL := $(MAKE) --no-print-directory --output-sync=target
test: doctor
	@$(PARALLEL) -j3 test-tools web rust-build
	@$(PARALLEL) -j3 run-rust-tests run-web-tests run-e2e-postgres
	@$(MAKE) --no-print-directory run-e2e
	@$(MAKE) --no-print-directory run-e2e-scale-out

test-rust: test-tools rust-build
	@$(MAKE) --no-print-directory run-rust-tests
test-web: web
	@$(MAKE) --no-print-directory run-web-tests
test-e2e: web rust-build
	@$(MAKE) --no-print-directory run-e2e
## The sign-up → verify → sign-in → sign-out journey and the federation journey (a Fedify peer)
## once more, with the server on PostgreSQL.
test-e2e-postgres: web rust-build
	@$(MAKE) --no-print-directory run-e2e-postgres

## Test-only tools that are not Rust or Node: an SMTP server (aiosmtpd) for the e-mail tests, in
## a virtualenv under target/, and Garage, the S3-compatible store of a scaled-out installation
## (deploy/), for the storage tests. Garage takes about 9 minutes to build on two cores, so it is
## built once per machine into a cache outside the clone ($(GARAGE_ROOT)) and reused by every
## clone after; a `garage` on PATH is used as it is.
TEST_TOOLS := target/test-tools/venv
GARAGE_VERSION := 2.5.0
GARAGE_ROOT ?= $(HOME)/.cache/selfsound/garage
GARAGE_BIN := $(or $(shell command -v garage 2>/dev/null),$(GARAGE_ROOT)/bin/garage)
export SELFSOUND_TEST_GARAGE ?= $(GARAGE_BIN)
test-tools: $(TEST_TOOLS)/.installed garage
## One stamp file as the target: a rule naming both programs as targets would run once per
## target under -j, and two venvs made at once in one folder collide.
$(TEST_TOOLS)/.installed:
	python3 -m venv $(TEST_TOOLS)
	$(TEST_TOOLS)/bin/pip install --quiet --disable-pip-version-check "aiosmtpd>=1.4,<2"
	touch $@
garage:
	@if [ ! -x "$(GARAGE_BIN)" ]; then \
	  echo "--- building Garage $(GARAGE_VERSION) once for this machine into $(GARAGE_ROOT) (about 9 minutes)"; \
	  $(CARGO) install garage --locked --quiet --version $(GARAGE_VERSION) --root $(GARAGE_ROOT); \
	fi

## Every crate's tests, and the binary and test OIDC provider the browser tests run, built in
## one cargo invocation per profile: one set of features, each crate compiled once. `--tests`
## (not `--all-targets`) honours `test = false`: no empty unit-test binaries, no bench (`make
## lint` still compiles every target).
rust-build:
	$(CARGO) test --workspace --tests --no-run
	$(CARGO) build -p api --bin selfsound --example oidc_provider

run-rust-tests:
	$(CARGO) test --workspace --tests --no-fail-fast

## The web app's wire types against the OpenAPI document of the binary rust-build made (after a
## change to the server's wire, `cd frontend && npm run wire-types` writes them again), then its
## unit tests. `make test-web` alone may have no binary: the check is then skipped, except in CI.
run-web-tests:
	@if [ -z "$${SELFSOUND_BIN:-}" ] && [ ! -x target/debug/selfsound ] && { [ -z "$${CI:-}" ] || [ "$${CI}" = "false" ]; }; then \
	  echo; echo "*** SKIPPED wire types check: no target/debug/selfsound (cargo build -p api --bin selfsound). Under CI=true this fails. ***"; echo; \
	else \
	  cd $(FRONTEND) && $(NPM) run --silent wire-types -- --check; \
	fi
	cd $(FRONTEND) && $(NPM) test

run-e2e:
	@if ! command -v "$${CHROMIUM:-chromium}" >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then \
	  if [ -n "$${CI:-}" ] && [ "$${CI}" != "false" ]; then \
	    echo "*** CI: Chromium is required for the browser tests (apt-get install -y chromium) ***"; exit 1; \
	  fi; \
	  echo; echo "*** SKIPPED browser tests: no Chromium (apt-get install -y chromium). Under CI=true this fails. ***"; echo; \
	else \
	  cd $(FRONTEND) && $(NPM) run e2e; \
	fi

run-e2e-postgres:
	@if ! pg_isready -q -d "$(PG_ADMIN_URL)" 2>/dev/null; then \
	  if [ -n "$${CI:-}" ] && [ "$${CI}" != "false" ]; then echo "*** CI: PostgreSQL is required at $(PG_ADMIN_URL) ***"; exit 1; fi; \
	  echo; echo "*** SKIPPED browser journey on PostgreSQL: none at $(PG_ADMIN_URL). Under CI=true this fails. ***"; echo; \
	elif ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then \
	  echo "*** SKIPPED browser journey on PostgreSQL: no Chromium ***"; \
	else \
	  db=selfsound_e2e_$$$$; status=0; \
	  psql -q "$(PG_ADMIN_URL)" -c "CREATE DATABASE $$db"; \
	  ( cd $(FRONTEND) && DATABASE_URL="$(PG_BASE_URL)/$$db" SELFSOUND_E2E_TAG=postgres npx playwright test e2e/auth-journey.spec.ts e2e/federation.spec.ts --project desktop ) || status=$$?; \
	  psql -q "$(PG_ADMIN_URL)" -c "DROP DATABASE IF EXISTS $$db WITH (FORCE)"; \
	  exit $$status; \
	fi

## The production topology of deploy/ as processes on loopback (frontend/e2e/scale-out/): a fresh
## PostgreSQL database, Garage, an SMTP catcher, two selfsound processes and Caddy in front with
## deploy/Caddyfile itself, federation on; one browser journey through Caddy, with one process
## killed (SIGKILL) midway, and one where another server (Fedify) gets each post once. Needs what rust-build, web and test-tools make. Without Caddy, Garage, Chromium,
## aiosmtpd or PostgreSQL it is skipped; under CI=true it fails.
.PHONY: run-e2e-scale-out
run-e2e-scale-out:
	@missing=(); \
	command -v "$${SELFSOUND_CADDY:-caddy}" >/dev/null 2>&1 || missing+=("Caddy (apt-get install -y caddy)"); \
	[ -x "$${SELFSOUND_TEST_GARAGE:-}" ] || missing+=("Garage (make garage)"); \
	{ command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; } || missing+=("Chromium (apt-get install -y chromium)"); \
	[ -x "$${SELFSOUND_TEST_AIOSMTPD:-$(TEST_TOOLS)/bin/aiosmtpd}" ] || missing+=("aiosmtpd (make test-tools)"); \
	pg_isready -q -d "$(PG_ADMIN_URL)" 2>/dev/null || missing+=("PostgreSQL at $(PG_ADMIN_URL)"); \
	if [ $${#missing[@]} -gt 0 ]; then \
	  list=$$(printf '%s, ' "$${missing[@]}"); list=$${list%, }; \
	  if [ -n "$${CI:-}" ] && [ "$${CI}" != "false" ]; then echo "*** CI: the scale-out journey needs $$list ***"; exit 1; fi; \
	  echo; echo "*** SKIPPED scale-out journey (two processes behind Caddy): no $$list. Under CI=true this fails. ***"; echo; \
	else \
	  cd $(FRONTEND) && PG_ADMIN_URL="$(PG_ADMIN_URL)" npx playwright test -c e2e/scale-out/playwright.config.ts; \
	fi

ci:
	CI=true bash .ci/run

## Measurements, not assertions: user search at 100k people on both backends (release build,
## with query plans), the peak memory of a 100 MB upload streamed through the reader, and the
## feeds, post page and comments at a million posts against the binary's own ceiling, and like
## and comment writes per second (wrk; bench/run.py writes bench/results/ and the table in
## docs/performance.md). BENCH_KEEP=<folder> keeps the seeded databases for the next run;
## BENCH_BACKENDS=sqlite measures one backend.
bench: test-tools
	@command -v wrk >/dev/null 2>&1 || { echo "*** make bench needs wrk: apt-get install -y wrk"; exit 1; }
	$(CARGO) bench -p app --bench search
	$(CARGO) test --release -p api --test api -- upload::streamed_upload_memory_is_bounded --exact --nocapture
	$(CARGO) build --release -p api --bin selfsound
	python3 bench/run.py

## Ten minutes of mixed traffic (reads, likes, comments, uploads) at half of the mix's measured
## capacity against the release build; fails on any failed request or on memory or file
## descriptors that keep growing. Figures in docs/operations.md § Soak. SOAK_SECONDS=60 for a
## quick run.
soak:
	@command -v wrk >/dev/null 2>&1 || { echo "*** make soak needs wrk: apt-get install -y wrk"; exit 1; }
	$(CARGO) build --release -p api --bin selfsound
	python3 bench/soak.py

## Fuzzing, not part of `make test` or CI (nightly builds are slow): each cargo-fuzz target in
## fuzz/ for FUZZ_SECONDS (60) seconds, one process each, on the nightly toolchain, from seeds
## fuzz/seeds.sh makes. cargo-fuzz is installed on first use (into ~/.cargo/bin). A crash stops
## its target (the others still run) and leaves its input in fuzz/artifacts/<target>/: copy it to
## fuzz/regressions/<target>/, which `cargo test` replays on stable (docs/security.md § Fuzzing).
## One target: make fuzz FUZZ_TARGETS=mxl.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= musicxml mxl sniff image audio audio_strip mentions multipart
FUZZ_FLAGS ?= -timeout=20 -rss_limit_mb=3072
fuzz:
	@command -v cargo-fuzz >/dev/null 2>&1 || $(CARGO) install cargo-fuzz --locked
	@rustup toolchain list 2>/dev/null | grep -q '^nightly' || { echo "*** make fuzz needs Rust nightly: rustup toolchain install nightly"; exit 1; }
	bash fuzz/seeds.sh
	cd fuzz && $(CARGO) +nightly fuzz build
	@cd fuzz && failed=(); for t in $(FUZZ_TARGETS); do \
	  echo "=== fuzz $$t for $(FUZZ_SECONDS) s"; \
	  $(CARGO) +nightly fuzz run --jobs 1 $$t corpus/$$t -- -max_total_time=$(FUZZ_SECONDS) $(FUZZ_FLAGS) \
	    || failed+=($$t); \
	done; \
	if [ $${#failed[@]} -gt 0 ]; then echo "*** fuzz: crashes in: $${failed[*]} (inputs in fuzz/artifacts/)"; exit 1; fi

fmt:
	$(CARGO) fmt --all
	cd $(FRONTEND) && npx --no-install eslint . --fix

## clippy (warnings are errors), then ESLint and the TypeScript check of the web app.
lint: web-deps
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	cd $(FRONTEND) && $(NPM) run lint

clean:
	$(CARGO) clean
	rm -rf $(FRONTEND)/dist $(FRONTEND)/node_modules fuzz/target
