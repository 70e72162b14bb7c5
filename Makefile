# iap-recon — build, test, demo and benchmark.
# Each target installs the Debian packages it needs when they are missing.

SWIFT ?= swift
RUNTIME_PACKAGES := libsqlite3-dev libxlsxwriter-dev zlib1g-dev
TEST_PACKAGES := unzip
BENCH_PACKAGES := sqlite3 time bc python3 python3-venv
# The support web view's browser test: headless Chromium (and a font to render with).
BROWSER_PACKAGES := chromium fonts-dejavu-core
SUDO := $(shell [ "$$(id -u)" = "0" ] || echo sudo)

.PHONY: all build test demo bench deps test-deps bench-deps browser-deps clean

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

build: deps
	$(SWIFT) build

# Serially: the suite runs HTTP servers and subprocesses whose timeouts should not race the
# CPU-heavy tests for this machine's two cores.
test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --no-parallel

demo: deps
	$(SWIFT) build
	./.build/debug/iap-recon demo --out reports

bench: bench-deps
	$(SWIFT) build -c release
	./scripts/bench.sh

clean:
	rm -rf .build reports/*.csv reports/*.xlsx reports/*.json reports/*.sqlite*
