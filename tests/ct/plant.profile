# SPDX-License-Identifier: Apache-2.0
# The planted-leak test (tests/ct/plant.sh): HMAC-SHA256 on BearSSL, and,
# with the test hook MERLIN_TEST_CT_PLANT, the planted variants of
# tests/ct/plant/adapter.c, which call it.
description = constant-time test: planted leaks around BearSSL HMAC-SHA256

hmac-sha256 = bearssl
