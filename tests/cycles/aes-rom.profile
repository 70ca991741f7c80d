# SPDX-License-Identifier: Apache-2.0
# AES-128-GCM on Mbed TLS with its tables constant in flash (MBEDTLS_AES_ROM_TABLES),
# beside aes-ram.profile: the pair of docs/cycle-model.md "AES tables in
# flash or RAM" (scripts/cycle-tables).
description = cycle model: Mbed TLS AES-128-GCM, tables in flash
aes-128-gcm = mbedtls
mbedtls.aes_tables = rom
