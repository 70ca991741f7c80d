/* SPDX-License-Identifier: Apache-2.0 */
/* Known-answer vectors: filled in as algorithms gain them (see vectors.c). */
#include "vectors.h"
