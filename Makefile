# SPDX-License-Identifier: Apache-2.0
# Merlin's front door. `make bench` runs the benchmarks, `make test` the tests;
# both install what is missing first (scripts/setup, scripts/fetch-deps).

HOST_BUILD := build/host
MERLIN := $(HOST_BUILD)/merlin
TARGETS ?= host,qemu-m4
PROFILE ?= default
OUT ?= results

.PHONY: all bench bench-profiles test test-cores test-sanitize fuzz setup deps tools boards clean distclean help

all: tools

help:
	@echo "make bench   build and run every benchmark on $(TARGETS) -> $(OUT)/latest/"
	@echo "make test    build and run the test suite (unit, KATs on host and QEMU, end to end)"
	@echo "make bench-profiles  every shipped profile on every QEMU target (hours)"
	@echo "make test-cores  the default profile end to end on qemu-m3, qemu-m7, qemu-m33"
	@echo "make test-sanitize  the host tests with ASan and UBSan (CLI, tests and host images)"
	@echo "make fuzz    the parsers under libFuzzer, FUZZ_SECONDS (default 300) each"
	@echo "make tools   build the merlin CLI only (build/host/merlin)"
	@echo "make boards  build the four real-board images (docs/targets.md: Real boards), sizes"
	@echo "make deps    install system packages and fetch pinned library sources"
	@echo "make clean   remove build/ (results/ and third_party/ are kept)"

setup:
	@scripts/setup

deps: setup
	@scripts/fetch-deps

tools: deps
	@cmake --preset host >/dev/null
	@cmake --build --preset host

# The real-board images (docs/targets.md), warning-free, with their sizes.
boards: tools
	scripts/build-boards $(MERLIN) $(PROFILE)

bench: tools
	$(MERLIN) run --target $(TARGETS) --profile $(PROFILE) --ct --out $(OUT)

# Every shipped profile on every QEMU target (or PROFILE_TARGETS), default
# options: hours on 2 cores; prints the "Long runs" table of docs/measurements.md.
PROFILE_TARGETS ?=
bench-profiles: tools
	TARGETS="$(PROFILE_TARGETS)" scripts/bench-profiles $(MERLIN) $(OUT)/bench-profiles

test: tools
	ctest --test-dir $(HOST_BUILD) --output-on-failure -j2 -LE cores

# The default profile end to end on qemu-m3, qemu-m7 and qemu-m33 (label
# "cores": their builds and e2e-run tests), left out of make test for CI's
# time budget; run it before a release or after touching a port.
test-cores: tools
	ctest --test-dir $(HOST_BUILD) --output-on-failure -j2 -L cores

# The host side under AddressSanitizer and UBSan: the CLI and unit tests, and
# host images (harness and libraries) built by the sanitized merlin. QEMU
# tests are left out: the images there are not instrumented.
test-sanitize: deps
	@cmake --preset host-sanitize >/dev/null
	@cmake --build --preset host-sanitize
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir build/host-sanitize --output-on-failure -j2 -E 'qemu|fuzz|kat-all'

FUZZ_SECONDS ?= 300
fuzz: deps
	tests/fuzz/run.sh $(FUZZ_SECONDS)

clean:
	rm -rf build

distclean: clean
	rm -rf third_party results
