/* SPDX-License-Identifier: Apache-2.0 */
/* results.json "control" of a run: the interleaved control primitive's
 * time per call after every operation (docs/host.md, "Host timing"); the
 * noise figure computed from it is analysis/noise.h. */
#ifndef MERLIN_HOST_CONTROL_JSON_H
#define MERLIN_HOST_CONTROL_JSON_H

#include "model/model.h"

#include <jansson.h>
#include <stddef.h>

/* results.json "control" of a run (NULL when it has no probes) and back;
 * 0, or -1 with a message. */
json_t *mh_control_json(const mh_run *run);
int mh_control_from_json(json_t *v, mh_run *run, char *err, size_t errlen);

#endif
