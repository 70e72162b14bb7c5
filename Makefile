# iap-recon — build, test, demo and benchmark.
# Each target installs the Debian packages it needs when they are missing.

SWIFT ?= swift
RUNTIME_PACKAGES := libsqlite3-dev libxlsxwriter-dev zlib1g-dev
# The PostgreSQL source's tests start a throwaway server (initdb, pg_ctl) on loopback.
TEST_PACKAGES := unzip postgresql
BENCH_PACKAGES := sqlite3 time bc python3 python3-venv postgresql curl
# The reliability suite: mounts a tiny tmpfs (util-linux), checks the store with python3's sqlite3, measures
# peak RSS with GNU time, gzips a fuzz seed.
RELIABILITY_PACKAGES := util-linux python3 coreutils time gzip
# The support web view's browser test: headless Chromium (and a font to render with).
BROWSER_PACKAGES := chromium fonts-dejavu-core
# The store's Citus suite: Citus's release source with its build script (Debian ships no Citus package). `make
# citus` builds and installs the extension into Debian's PostgreSQL 15 (about 2 minutes; nothing when installed).
CITUS_SOURCE ?= ../shared/citus
CRASH_KILLS ?= 50
FUZZ_SECONDS ?= 60
# `verify` over a store of this many receipts stays under this peak RSS (MB).
# It runs the release build (as a nightly job would; a debug build needs ~25 min of CPU for a million):
# MEMORY_BUILD=debug uses the debug one; RELEASE_FLAGS passes SwiftPM options to it (e.g. --scratch-path).
MEMORY_RECEIPTS ?= 1000000
MEMORY_LIMIT_MB ?= 300
MEMORY_BUILD ?= release
RELEASE_FLAGS ?=
# `make bench-sizes`: the ledger sizes iap-recon and DuckDB are compared at (the 10,000,000-row file takes 2.3 GB).
SIZES ?= 1000000 10000000
# `make lint`: the most lines a Swift file may have (and scripts/check-tracked-files.sh: no tracked file over 5 MB,
# none named like a command-line flag).
MAX_SWIFT_LINES ?= 450
# A target that imports a layer it does not depend on fails the build (Package.swift is the layers' picture).
LAYER_CHECK := --explicit-target-dependency-import-check error
SUDO := $(shell [ "$$(id -u)" = "0" ] || echo sudo)
# `make install`: where the binary and the nightly wrapper go (DESTDIR stages a package's tree); the release build
# links the Swift runtime in, so the host needs no Swift toolchain, only the C libraries of INSTALL_RUNTIME_PACKAGES.
PREFIX ?= /usr/local
STATIC_FLAGS := -c release --static-swift-stdlib
INSTALL_RUNTIME_PACKAGES := libsqlite3-0 libxlsxwriter4 zlib1g

.PHONY: all build install test lint citus reliability demo bench golden bench-store bench-serve bench-citus bench-night bench-night-reports bench-sizes bench-memory deps test-deps bench-deps reliability-deps browser-deps clean

all: build

define ensure_packages
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

deps:
	$(call ensure_packages,$(RUNTIME_PACKAGES))

test-deps: deps browser-deps
	$(call ensure_packages,$(TEST_PACKAGES))

# Where Chromium cannot be installed, the browser test skips and says so; the rest still runs.
browser-deps:
	-$(call ensure_packages,$(BROWSER_PACKAGES))

bench-deps: deps
	$(call ensure_packages,$(BENCH_PACKAGES))

citus: test-deps
	@if [ -f "$(CITUS_SOURCE)/build.sh" ]; then $(SUDO) bash "$(CITUS_SOURCE)/build.sh"; \
	else echo "no Citus source at $(CITUS_SOURCE) (set CITUS_SOURCE): the Citus suite will fail" >&2; fi

reliability-deps: test-deps citus
	$(call ensure_packages,$(RELIABILITY_PACKAGES))

build: deps
	$(SWIFT) build $(LAYER_CHECK)

# The release build with the Swift runtime linked in (`--static-swift-stdlib`), installed as $(PREFIX)/bin/iap-recon
# beside scripts/iap-recon-nightly (the cron job's wrapper). On the host that runs it: $(INSTALL_RUNTIME_PACKAGES).
install: deps
	$(SWIFT) build $(STATIC_FLAGS) --product iap-recon $(RELEASE_FLAGS)
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 0755 "$$($(SWIFT) build $(STATIC_FLAGS) --show-bin-path $(RELEASE_FLAGS))/iap-recon" \
		"$(DESTDIR)$(PREFIX)/bin/iap-recon"
	install -m 0755 scripts/iap-recon-nightly "$(DESTDIR)$(PREFIX)/bin/iap-recon-nightly"
	install -m 0755 scripts/iap-recon-hourly "$(DESTDIR)$(PREFIX)/bin/iap-recon-hourly"
	@echo "installed iap-recon, iap-recon-nightly and iap-recon-hourly in $(DESTDIR)$(PREFIX)/bin"

# Serially: the suite runs HTTP servers and subprocesses whose timeouts should not race the
# CPU-heavy tests for this machine's two cores.
# The suite includes the reliability suite's bounded form: a crash loop of 3 kills, the fault
# matrix, the disk-full / read-only checks, and the memory check on 10,000 receipts.
test: reliability-deps citus
	$(SWIFT) build --build-tests $(LAYER_CHECK)
	$(SWIFT) test --skip-build --no-parallel
	./scripts/disk-faults.sh
	RECEIPTS=10000 RSS_LIMIT_MB=$(MEMORY_LIMIT_MB) ./scripts/verify-memory.sh

# The full reliability suite: crash loop of $(CRASH_KILLS) kills, fault matrix, disk faults, `verify`
# of $(MEMORY_RECEIPTS) receipts under $(MEMORY_LIMIT_MB) MB, and libFuzzer over the input readers for
# $(FUZZ_SECONDS) s each; prints its figures.
reliability: reliability-deps
	$(SWIFT) build --build-tests
	IAP_RECON_CRASH_KILLS=$(CRASH_KILLS) $(SWIFT) test --skip-build --no-parallel --filter 'CrashLoopTests|FaultMatrixTests' 2>&1 \
		| tee .build/reliability.log | grep -E 'crash loop:|✘|passed after|failed after'
	./scripts/disk-faults.sh
	$(SWIFT) build -c $(MEMORY_BUILD) --product iap-recon $(RELEASE_FLAGS)
	IAP_RECON="$$($(SWIFT) build -c $(MEMORY_BUILD) --show-bin-path $(RELEASE_FLAGS))/iap-recon" \
		RECEIPTS=$(MEMORY_RECEIPTS) RSS_LIMIT_MB=$(MEMORY_LIMIT_MB) ./scripts/verify-memory.sh
	FUZZ_SECONDS=$(FUZZ_SECONDS) ./scripts/fuzz.sh

# The toolchain's own formatter, with the checked-in .swift-format configuration; then no Swift file
# longer than $(MAX_SWIFT_LINES) lines: each one longer is printed with its line count, and lint fails.
lint:
	./scripts/check-tracked-files.sh
	./scripts/check-docs.sh
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift
	@find Sources Tests Package.swift -name '*.swift' -exec wc -l {} + \
		| awk -v max=$(MAX_SWIFT_LINES) '{ n = $$1; sub(/^ *[0-9]+ /, "") } \
			$$0 != "total" && n > max { print $$0 ": " n " lines (at most " max ")"; bad = 1 } END { exit bad }'

# The demo's closing lines name the binary as it was started here (./.build/debug/iap-recon), so they work pasted.
demo: deps
	$(SWIFT) build
	./.build/debug/iap-recon demo --out reports

# The references' table, then the night, the re-export and store growth (scripts/bench-night.sh).
bench: bench-deps
	$(SWIFT) build -c release
	./scripts/bench.sh

# The reports of the 1,000,000-row ledger (ROWS) held to the hashes recorded before the judge's redesign: a first run,
# a night incremental and from scratch (RECORD=1 records them; scripts/judge-golden.sh).
golden: bench-deps
	$(SWIFT) build -c release --product iap-recon
	./scripts/judge-golden.sh

# The night, the re-export and store growth alone (ROWS, NIGHT_ROWS, REPEAT, ROWS_GROWTH, ...: see the script).
bench-night: bench-deps
	$(SWIFT) build -c release --product iap-recon
	./scripts/bench-night.sh

# The night with Apple's Sales Reports in the store (ROWS, NIGHT_ROWS, REPORT_DAYS: see the script).
bench-night-reports: bench-deps
	$(SWIFT) build -c release --product iap-recon
	./scripts/bench-night-reports.sh

# Import + report from scratch beside DuckDB at each of $(SIZES) rows: ratios, cost per row, peak RSS.
bench-sizes: bench-deps
	$(SWIFT) build -c release --product iap-recon
	SIZES="$(SIZES)" ./scripts/bench-sizes.sh

# Peak RSS of import and report at 10,000,000 rows (iap-recon alone; the file takes a few GB).
bench-memory: bench-deps
	$(SWIFT) build -c release
	ROWS=10000000 SKIP_REFERENCES=1 SKIP_POSTGRES=1 SKIP_STORE=1 SKIP_SWIFT_FIGURES=1 SKIP_NIGHT=1 ./scripts/bench.sh

# Import + report from scratch and a night with the store in PostgreSQL and in SQLite (ROWS, NIGHT_ROWS).
bench-store: bench-deps
	$(SWIFT) build -c release --product iap-recon
	./scripts/bench-store.sh

# The support page under load: lookups per second with the store in SQLite and in PostgreSQL (ROWS, CLIENTS).
bench-serve: bench-deps
	$(SWIFT) build -c release --product iap-recon
	$(SWIFT) build -c release --product iap-recon-bench
	./scripts/bench-serve.sh

# The whole job with its store on one PostgreSQL server and on a three-node Citus cluster (PURCHASES).
bench-citus: bench-deps citus
	$(SWIFT) build -c release --product iap-recon
	CITUS_SOURCE="$(CITUS_SOURCE)" ./scripts/bench-citus.sh

clean:
	rm -rf .build .build-fuzz reports/*.csv reports/*.xlsx reports/*.json reports/*.sqlite*
