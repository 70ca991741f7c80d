# SPDX-License-Identifier: Apache-2.0
# The validation table of docs/cycle-model.md: the schemes pqm4 publishes
# cycle counts for, from PQClean's C as in pqm4's 'clean' builds
# (scripts/cycle-validation.mjs).
description = cycle-model validation: PQClean ML-KEM-768 and ML-DSA-44

ml-kem-768 = pqclean
ml-dsa-44 = pqclean
