# SPDX-License-Identifier: Apache-2.0
# The controls alone, for a run of a pqm4 checkout's folders beside them
# (docs/bring-your-own.md, "From a pqm4 checkout").
description = controls only: a pqm4 checkout's folders beside them
hmac-sha256 = wolfcrypt
