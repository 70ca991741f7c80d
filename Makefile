# SPDX-License-Identifier: Apache-2.0
# Merlin's front door. `make bench` runs the benchmarks, `make test` the tests;
# both install what is missing first (scripts/setup, scripts/fetch-deps).

HOST_BUILD := build/host
MERLIN := $(HOST_BUILD)/merlin
TARGETS ?= host,qemu-m4
PROFILE ?= default
OUT ?= results

.PHONY: all bench test setup deps tools clean distclean help

all: tools

help:
	@echo "make bench   build and run every benchmark on $(TARGETS) -> $(OUT)/latest/"
	@echo "make test    build and run the test suite (unit, KATs on host and QEMU, end to end)"
	@echo "make tools   build the merlin CLI only (build/host/merlin)"
	@echo "make deps    install system packages and fetch pinned library sources"
	@echo "make clean   remove build/ (results/ and third_party/ are kept)"

setup:
	@scripts/setup

deps: setup
	@scripts/fetch-deps

tools: deps
	@cmake --preset host >/dev/null
	@cmake --build --preset host

bench: tools
	$(MERLIN) run --target $(TARGETS) --profile $(PROFILE) --out $(OUT)

test: tools
	ctest --test-dir $(HOST_BUILD) --output-on-failure -j2

clean:
	rm -rf build

distclean: clean
	rm -rf third_party results
