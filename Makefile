# SPDX-License-Identifier: Apache-2.0
# Merlin's front door. `make bench` runs the benchmarks, `make test` the tests;
# both install what is missing first (scripts/setup, scripts/fetch-deps).

HOST_BUILD := build/host
MERLIN := $(HOST_BUILD)/merlin
TARGETS ?= host,qemu-m4
PROFILE ?= default
OUT ?= results

.PHONY: all bench bench-profiles site test test-cores test-sanitize fuzz setup deps cli tools boards clean distclean help

all: tools

help:
	@echo "make bench   build merlin and run every benchmark on $(TARGETS) -> $(OUT)/latest/"
	@echo "make test    build and run the test suite (unit, KATs on host and QEMU, end to end)"
	@echo "make bench-profiles  every shipped profile on every QEMU target (hours)"
	@echo "make site    sweep the pinned PQClean tree on every modelled QEMU core -> $(SITE_OUT)/site/ (hours)"
	@echo "make test-cores  the default profile end to end on qemu-m3, qemu-m7, qemu-m33"
	@echo "make test-sanitize  the host tests with ASan and UBSan (CLI, tests and host images)"
	@echo "make fuzz    the parsers under libFuzzer, FUZZ_SECONDS (default 300) each"
	@echo "make cli     build the merlin CLI and its QEMU plugins only (build/host/merlin)"
	@echo "make tools   the merlin CLI, its plugins and the test programs"
	@echo "make boards  build the four real-board images (docs/targets.md: Real boards), sizes"
	@echo "make deps    install system packages and fetch pinned library sources"
	@echo "make clean   remove build/ (results/ and third_party/ are kept)"

# What scripts/setup installs: the Debian packages the goals on the command
# line need (scripts/setup --help), bench's when none says; SETUP=... picks.
SETUP_all := test
SETUP_tools := test
SETUP_test := test
SETUP_test-cores := test
SETUP_test-sanitize := test
SETUP_bench := bench
SETUP_bench-profiles := bench
SETUP_site := bench
SETUP_cli := bench
SETUP_deps := bench
SETUP_setup := bench
SETUP_boards := boards
SETUP_fuzz := fuzz
SETUP ?= $(sort $(foreach g,$(or $(MAKECMDGOALS),all),$(SETUP_$(g))))
LOGS := build/logs

setup:
	@scripts/setup $(SETUP)

deps: setup
	@scripts/fetch-deps

# The CLI and plugins alone (what make bench needs): configured without the
# test programs when build/host is new; otherwise as it is.
cli: deps
	@[ -f $(HOST_BUILD)/CMakeCache.txt ] || scripts/quietly $(LOGS)/configure.log \
	  "make: configuring $(HOST_BUILD)" cmake --preset host -DMERLIN_TESTS=OFF
	@scripts/quietly $(LOGS)/build-cli.log "make: building the merlin CLI and its QEMU plugins" \
	  cmake --build --preset host --target merlin merlin_cycles merlin_insn

tools: deps
	@scripts/quietly $(LOGS)/configure.log "make: configuring $(HOST_BUILD)" \
	  cmake --preset host -DMERLIN_TESTS=ON
	@scripts/quietly $(LOGS)/build.log "make: building the merlin CLI, its plugins and the test programs" \
	  cmake --build --preset host

# The real-board images (docs/targets.md), warning-free, with their sizes.
boards: cli
	scripts/build-boards $(MERLIN) $(PROFILE)

bench: cli
	$(MERLIN) run --target $(TARGETS) --profile $(PROFILE) --ct --out $(OUT)

# Every shipped profile on every QEMU target (or PROFILE_TARGETS), default
# options: hours on 2 cores; prints the "Long runs" table of docs/measurements.md.
PROFILE_TARGETS ?=
bench-profiles: cli
	TARGETS="$(PROFILE_TARGETS)" scripts/bench-profiles $(MERLIN) $(OUT)/bench-profiles

# A table to start from (docs/benchmarks.md): the pinned PQClean tree's
# ML-KEM, ML-DSA, Falcon and SLH-DSA-f sets on every modelled QEMU core,
# planned, run, merged, imported into $(SITE_OUT)/results.db and sited in
# $(SITE_OUT)/site; SCHEMES, CORES, RUNS, WARMUP, SHARDS, JOBS pick (empty:
# scripts/site-sweep's defaults), SITE_OPTS adds any of its options.
SITE_OUT ?= $(OUT)/site-sweep
SCHEMES ?=
CORES ?=
RUNS ?=
WARMUP ?=
SHARDS ?=
JOBS ?=
SITE_OPTS ?=
site: cli
	scripts/site-sweep --merlin $(MERLIN) --out $(SITE_OUT) $(if $(SCHEMES),--schemes $(SCHEMES)) \
	  $(if $(CORES),--cores $(CORES)) $(if $(RUNS),--runs $(RUNS)) $(if $(WARMUP),--warmup $(WARMUP)) \
	  $(if $(SHARDS),--shards $(SHARDS)) $(if $(JOBS),--jobs $(JOBS)) $(SITE_OPTS)

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
