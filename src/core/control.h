/* SPDX-License-Identifier: Apache-2.0 */
/* The interleaved control probe (src/core/control.c). */
#ifndef MERLIN_CONTROL_H
#define MERLIN_CONTROL_H

#include <stdint.h>

/* Time the control primitive a few times after operation id's samples and
 * send a ctl record; nothing when the image has no control. */
void mcore_control_probe(uint32_t id);

#endif
