/* SPDX-License-Identifier: MIT */
/* size_probe.c: the tiny program make size links for each configuration (tools/bench/size.sh).
 *
 * It runs the frame loop once (init, add, move, update, walk pairs and events, remove), so that
 * --gc-sections keeps what a firmware using that backend needs, and nothing else: no queries.
 * Flash of the library = this program minus the baseline (-DSIZE_BASELINE: startup, port and
 * the assert hook only). The world is not in this image's RAM (size.sh places the symbol with
 * --defsym), so a configuration larger than the chip's RAM still links; its RAM is measured
 * separately as sizeof(mbp_world). Never run: it only has to link.
 */
#include "mbp.h"
#include "mbp_port.h"

#ifdef SIZE_BASELINE
int main(void)
{
    void (*volatile hook)(const char *, const char *, int) = mbp_port_assert_failed;
    return hook != 0 ? 0 : 1;
}
#else
extern mbp_world size_world;

int main(void)
{
    mbp_params p;
    mbp_params_default(&p);
    p.backend = SIZE_BACKEND;
    if (mbp_init(&size_world, &p) != MBP_OK) {
        return 1;
    }
    mbp_aabb box;
    for (int k = 0; k < MBP_DIM; k++) {
        box.min[k] = 0;
        box.max[k] = MBP_ONE;
    }
    mbp_body a, b;
    if (mbp_add_box(&size_world, &box, 1u, &a) != MBP_OK ||
        mbp_add_box(&size_world, &box, 2u, &b) != MBP_OK) {
        return 2;
    }
    box.max[0] = 2 * MBP_ONE;
    (void)mbp_move_box(&size_world, a, &box);
    (void)mbp_update(&size_world);
    uint32_t it = 0u, n = 0u, events;
    mbp_pair pair;
    while (mbp_next_pair(&size_world, &it, &pair)) {
        n++;
    }
    (void)mbp_begun(&size_world, &events);
    n += events;
    (void)mbp_ended(&size_world, &events);
    (void)mbp_remove(&size_world, b);
    return (int)(n + events);
}
#endif
