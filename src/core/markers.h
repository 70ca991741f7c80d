/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sample markers: empty functions the runner calls just before and just
 * after each timed sample (outside the two counter reads, so the measured
 * code is unchanged). The QEMU plugin (tools/qemu-plugin) finds them by
 * symbol and counts what runs between them; elsewhere they cost a call.
 */
#ifndef MERLIN_MARKERS_H
#define MERLIN_MARKERS_H

void mcore_mark_sample_begin(void);
void mcore_mark_sample_end(void);
/* One bracketed pair of back-to-back counter reads: the plugin's first
 * region of a run, the counterpart of the counter overhead. */
void mcore_mark_calibrate(void);
/* The constant-time check (docs/constant-time.md): begin and end bracket
 * each run with a fresh secret, inside its two counter reads; done follows
 * the last run of one operation's check. The plugin's ct trace hashes the
 * path and the memory addresses of each bracketed run. */
void mcore_mark_ct_begin(void);
void mcore_mark_ct_end(void);
void mcore_mark_ct_done(void);

#endif
