/* SPDX-License-Identifier: MIT */
/* shapes_probe.c: the firmware make bench-shapes links to measure what each shape option costs
 * (tools/bench/shapes.sh): a world with a box and one body of each shape kind compiled in (and a
 * fast body with MBP_WITH_FAST), one update, its pairs. Linked with --gc-sections and built once
 * per combination of MBP_WITH_OBB, _KDOP, _CAPSULE, _RSS, _FAST; the differences in flash (text
 * + data) and RAM (the world, in .bss) are each option's cost. Never run: it only has to link. */
#include "mbp.h"
#include "mbp_port.h"

mbp_world probe_world;

#if MBP__SHAPES
static mbp_scalar e8(int32_t n)
{
    return mbp_from_ratio(n, 8);
}
#endif

int main(void)
{
    mbp_shape s;
    mbp_body h;
    uint32_t n = 0u, it = 0u;
    if (mbp_init(&probe_world, NULL) != MBP_OK) {
        return 1;
    }
    s.kind = MBP_SHAPE_BOX;
    for (int k = 0; k < MBP_DIM; k++) {
        s.u.box.min[k] = 0;
        s.u.box.max[k] = MBP_ONE;
    }
    n += mbp_add_shape(&probe_world, &s, 1u, &h) == MBP_OK ? 1u : 0u;
#if MBP_WITH_FAST
    (void)mbp_set_fast(&probe_world, h, true);
#else
    (void)h;
#endif
#if MBP_WITH_OBB
    s.kind = MBP_SHAPE_OBB;
    for (int k = 0; k < MBP_DIM; k++) {
        s.u.obb.c[k] = e8(4);
        s.u.obb.h[k] = e8(2);
        for (int j = 0; j < MBP_DIM; j++) {
            s.u.obb.rot[k][j] = k == j ? MBP_UNIT_ONE : (mbp_unit)0;
        }
    }
    n += mbp_add_shape(&probe_world, &s, 2u, &h) == MBP_OK ? 1u : 0u;
#endif
#if MBP_WITH_KDOP
    s.kind = MBP_SHAPE_KDOP;
    for (int j = 0; j < MBP_KDOP_AXES; j++) {
        s.u.kdop.min[j] = e8(-4);
        s.u.kdop.max[j] = e8(4);
    }
    n += mbp_add_shape(&probe_world, &s, 3u, &h) == MBP_OK ? 1u : 0u;
#endif
#if MBP_WITH_CAPSULE
    s.kind = MBP_SHAPE_CAPSULE;
    for (int k = 0; k < MBP_DIM; k++) {
        s.u.capsule.a[k] = 0;
        s.u.capsule.b[k] = e8(8);
    }
    s.u.capsule.r = e8(1);
    n += mbp_add_shape(&probe_world, &s, 4u, &h) == MBP_OK ? 1u : 0u;
    (void)mbp_move_shape(&probe_world, h, &s);
#endif
#if MBP_WITH_RSS
    s.kind = MBP_SHAPE_RSS;
    for (int k = 0; k < MBP_DIM; k++) {
        s.u.rss.c[k] = e8(-4);
        for (int j = 0; j < MBP_DIM; j++) {
            s.u.rss.rot[k][j] = k == j ? MBP_UNIT_ONE : (mbp_unit)0;
        }
    }
    s.u.rss.h[0] = e8(2);
    s.u.rss.h[1] = e8(1);
    s.u.rss.r = e8(1);
    n += mbp_add_shape(&probe_world, &s, 5u, &h) == MBP_OK ? 1u : 0u;
    (void)mbp_move_shape(&probe_world, h, &s);
#endif
    (void)mbp_update(&probe_world);
    mbp_pair p;
    while (mbp_next_pair(&probe_world, &it, &p)) {
        n++;
    }
    return (int)n;
}
