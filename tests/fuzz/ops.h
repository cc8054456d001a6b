/* SPDX-License-Identifier: MIT */
/* ops.h: byte strings as scenes, run on a backend and on brute force side by side.
 *
 * fuzz_ops_run() reads the bytes as a sequence of operations (add box or sphere, move, nudge,
 * remove, set_filter, update, box/point/ray queries, sort; and, when bit 7 of the first byte is
 * set and the build has them, add and move oriented boxes, k-DOPs and capsules, and set_fast)
 * with coordinates, radii and rotations that may be any bit pattern (NaN, infinities, huge, tiny,
 * out of range), applies each to two worlds, one with the backend chosen by the first byte and
 * one with MBP_BRUTE, and checks:
 *   - every call returns a status documented for it, and the same in both worlds (the backend
 *     may also return MBP_E_NOROOM where documented: the run then stops, as the worlds differ);
 *   - after every update: the same pairs (sorted) as brute force while neither pair set
 *     overflowed; otherwise the backend's pairs are true ones; always stored + lost_pairs equal
 *     to brute force's (exactly the true pairs: brute force counts exactly); in each world the begun/ended events are exactly the difference between
 *     the pairs reported by this and the previous update (minus lost_events, counted), sorted;
 *     counters agree with what is walked;
 *   - queries return the same bodies and hits (a truncated result: a subset of the full one).
 * Used by the libFuzzer target (fuzz_ops.c) and by tests/test_regress.c, so a finding becomes a
 * regression test by pasting its bytes.
 */
#ifndef FUZZ_OPS_H
#define FUZZ_OPS_H

#include <stddef.h>
#include <stdint.h>
#include "mbp.h"

/* Runs the scene. Returns 0 when every check held, else the 1-based number of the operation
 * that failed, with *why naming the check. w and ref are any two worlds (their contents are
 * overwritten). */
uint32_t fuzz_ops_run(const uint8_t *data, size_t size, mbp_world *w, mbp_world *ref,
                      const char **why);

/* Updates checked by the last fuzz_ops_run() (the final one included): tells a test that the
 * scene ran to its end rather than stopping early at a documented MBP_E_NOROOM or MBP_E_PARAM. */
uint32_t fuzz_ops_updates(void);

/* The backend the first byte selects (among those compiled in). */
mbp_backend fuzz_ops_backend(uint8_t first);

#endif
