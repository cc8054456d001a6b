/* SPDX-License-Identifier: MIT */
/* profile.c: the program `make profile-m4` traces under QEMU (tools/bench/profile.sh,
 * docs/bench.md). It runs one backend on one of make bench's generated scenes for
 * PROFILE_FRAMES frames, applying each frame's operations as the bench does (moves-only frames
 * through mbp_move_boxes()), and nothing else: no timing, no output, no reference run, so that
 * every instruction traced is the scene's or the library's. Two runs that differ only in
 * PROFILE_FRAMES give, by difference, the cost of the frames between them.
 *
 * Exit status 0; 1 when an operation or an update fails (the profile would not be the scene's).
 */
#include "bench.h"

#ifndef PROFILE_BACKEND
#error "PROFILE_BACKEND: an mbp_backend value (make profile-m4 sets it)"
#endif
#ifndef PROFILE_SCENE
#error "PROFILE_SCENE: a bench_scene value (make profile-m4 sets it)"
#endif
#ifndef PROFILE_FRAMES
#error "PROFILE_FRAMES: frames to run, frame 0 (the adds) included (make profile-m4 sets it)"
#endif

static mbp_world g_w;
static mbp_body g_h[MBP_MAX_BODIES];   /* by the scene's id */
static mbp_body g_mh[MBP_MAX_BODIES];  /* a moves-only frame, as an application keeps it */
static mbp_aabb g_mbox[MBP_MAX_BODIES];
static bench_source g_s;

/* Frame f's operations, applied one by one; false when one fails. */
static bool apply(const bench_op *ops, uint32_t m)
{
    if (bench_gather_moves(ops, m, g_h, g_mh, g_mbox)) {
        return mbp_move_boxes(&g_w, m, g_mh, g_mbox, NULL) == MBP_OK;
    }
    for (uint32_t j = 0; j < m; j++) {
        if (bench_apply_op(&g_w, &g_s, g_h, &ops[j]) != MBP_OK) {
            return false;
        }
    }
    return true;
}

int main(void)
{
    scene_make(&g_s, PROFILE_SCENE, BENCH_N);
    mbp_params p;
    bench_params(&p, PROFILE_BACKEND, &g_s);
    if (mbp_init(&g_w, &p) != MBP_OK) {
        return 1;
    }
    g_s.reset(&g_s);
    for (uint32_t f = 0; f < (uint32_t)PROFILE_FRAMES; f++) {
        uint32_t m;
        const bench_op *ops = g_s.frame(&g_s, f, &m);
        if (!apply(ops, m) || mbp_update(&g_w) != MBP_OK) {
            return 1;
        }
    }
    return 0;
}
