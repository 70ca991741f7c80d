/* SPDX-License-Identifier: Apache-2.0 */
/* Cross-check mode (--xcheck): being written. */
#include "mcore.h"
