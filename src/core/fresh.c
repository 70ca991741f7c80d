/* SPDX-License-Identifier: Apache-2.0 */
/* An operation's fresh start (fresh.h). */
#include "fresh.h"

#include "mcore.h"
#include "port.h"
#include "stackmeter.h"

/* A counter whose wraps cost nothing inside a sample leaves this default
 * (port.h). */
__attribute__((weak)) void mport_counter_restart(void) {}

int mcore_fresh_reset(char *msg, size_t len) {
  for (size_t b = 0; b < mcore_n_backends; b++) {
    const mcore_backend *be = mcore_backends[b];
    if (be->reset && be->reset() != MCORE_OK) {
      static const char text[] = "resetting the library failed: ";
      const char *name = mcore_backend_name(be->id);
      size_t at = 0;
      for (const char *s = text; *s && at + 1 < len;)
        msg[at++] = *s++;
      for (const char *s = name; *s && at + 1 < len;)
        msg[at++] = *s++;
      if (len)
        msg[at] = '\0';
      return MCORE_ERR;
    }
  }
  mcore_stack_spray();
  return MCORE_OK;
}

void mcore_fresh_seed(uint64_t key, uint32_t stream) {
  mcore_rng_seed_stream(key, stream);
  for (size_t b = 0; b < mcore_n_backends; b++)
    if (mcore_backends[b]->reseed)
      mcore_backends[b]->reseed();
  /* The backends' draws came from the stream: start it again, so the
   * operation's own draws do not depend on which backends the image
   * holds. */
  mcore_rng_seed_stream(key, stream);
}
