/* SPDX-License-Identifier: MIT */
/* test_stack.c: the measured stack peak of the public functions against their static bound.
 *
 * On the Cortex-M machines the bound of every public function comes from mbp_stack_bound.h,
 * which tools/stack/stack.mk generates from -fstack-usage and -fcallgraph-info of this machine's
 * own build (tools/stack/report.sh; docs/stack.md shows it). The test fills the free stack below
 * the current stack pointer with a pattern, calls one function, and finds the lowest word that
 * changed: the peak, from the stack pointer at the call. Interrupts are off meanwhile, so only
 * the call writes there. Each peak, the largest over a scene run on every compiled backend, must
 * be at most its bound. The host runs the same scene and checks the statuses only.
 *
 * Built with TEST_STACK_REPORT=1 (make stack), it also prints "stack <function> <peak> <bound>".
 */
#include "test_util.h"

#if defined(__arm__)
#include "mbp_stack_bound.h"
#define STACK_MEASURED 1
#else
#define STACK_MEASURED 0
#endif

#ifndef TEST_STACK_REPORT
#define TEST_STACK_REPORT 0
#endif

enum {
    OP_INIT, OP_ADD_BOX, OP_ADD_SPHERE, OP_MOVE_BOX, OP_MOVE_SPHERE, OP_SET_FILTER, OP_REMOVE,
    OP_UPDATE, OP_SORT_PAIRS, OP_NEXT_PAIR, OP_BEGUN, OP_GET_BOX, OP_QUERY_BOX, OP_QUERY_POINT,
    OP_RAYCAST, OP_RAYCAST_FIRST, OP_MOVE_BOXES, OP_ADD_STATIC_BOX, OP_PAIRS, OP_QUERY_SPHERE,
    OP_MOVE_BOX_AT, OP_MOVE_BOXES_AT, OP_REMOVE_AT, OP_COUNT
};

static const char *const op_name[OP_COUNT] = {
    "mbp_init", "mbp_add_box", "mbp_add_sphere", "mbp_move_box", "mbp_move_sphere",
    "mbp_set_filter", "mbp_remove", "mbp_update", "mbp_sort_pairs", "mbp_next_pair",
    "mbp_begun", "mbp_get_box", "mbp_query_box", "mbp_query_point", "mbp_raycast",
    "mbp_raycast_first", "mbp_move_boxes", "mbp_add_static_box", "mbp_pairs",
    "mbp_query_sphere", "mbp_move_box_at", "mbp_move_boxes_at", "mbp_remove_at"};
#if STACK_MEASURED
static const uint32_t op_bound[OP_COUNT] = {
    MBP_STACK_BOUND_mbp_init, MBP_STACK_BOUND_mbp_add_box, MBP_STACK_BOUND_mbp_add_sphere,
    MBP_STACK_BOUND_mbp_move_box, MBP_STACK_BOUND_mbp_move_sphere,
    MBP_STACK_BOUND_mbp_set_filter, MBP_STACK_BOUND_mbp_remove, MBP_STACK_BOUND_mbp_update,
    MBP_STACK_BOUND_mbp_sort_pairs, MBP_STACK_BOUND_mbp_next_pair, MBP_STACK_BOUND_mbp_begun,
    MBP_STACK_BOUND_mbp_get_box, MBP_STACK_BOUND_mbp_query_box, MBP_STACK_BOUND_mbp_query_point,
    MBP_STACK_BOUND_mbp_raycast, MBP_STACK_BOUND_mbp_raycast_first,
    MBP_STACK_BOUND_mbp_move_boxes, MBP_STACK_BOUND_mbp_add_static_box, MBP_STACK_BOUND_mbp_pairs,
    MBP_STACK_BOUND_mbp_query_sphere, MBP_STACK_BOUND_mbp_move_box_at,
    MBP_STACK_BOUND_mbp_move_boxes_at, MBP_STACK_BOUND_mbp_remove_at};
#endif

/* The call's arguments and results: static, so the measuring frame stays small and fixed. */
static struct {
    mbp_params params;
    mbp_aabb box;
    mbp_sphere sphere;
    mbp_body h;
    uint16_t index; /* h's index, for the _at calls */
    mbp_body out_h;
    mbp_scalar p0[MBP_DIM], p1[MBP_DIM];
    uint16_t idx[8];
    mbp_hit hits[8];
    mbp_pair pair;
    uint32_t it, count;
    bool found;
    mbp_status st;
} a;

static uint32_t peak[OP_COUNT];

#if STACK_MEASURED
extern uint32_t __stack_bottom; /* targets/common/cortex-m.ld */
#define PAINT 0xA5C3F00Du
#endif

/* Runs one call and returns its stack peak in bytes (0 on the host). One function: its frame is
 * fixed, so the stack pointer read before painting is the one at every call below. */
static __attribute__((noinline)) uint32_t run(int op)
{
#if STACK_MEASURED
    uint32_t *sp;
    __asm__ volatile("cpsid i\n\tmov %0, sp" : "=r"(sp)::"memory");
    for (volatile uint32_t *q = &__stack_bottom; q < sp; q++) {
        *q = PAINT;
    }
#endif
    switch (op) {
    case OP_INIT: a.st = mbp_init(&test_w, &a.params); break;
    case OP_ADD_BOX: a.st = mbp_add_box(&test_w, &a.box, 7u, &a.out_h); break;
#if MBP_WITH_SPHERES
    case OP_ADD_SPHERE: a.st = mbp_add_sphere(&test_w, &a.sphere, 7u, &a.out_h); break;
    case OP_MOVE_SPHERE: a.st = mbp_move_sphere(&test_w, a.h, &a.sphere); break;
#else /* no sphere bodies: the sphere's box instead, so that the scene is the same */
    case OP_ADD_SPHERE:
        mbp_sphere_aabb(&a.sphere, &a.box);
        a.st = mbp_add_box(&test_w, &a.box, 7u, &a.out_h);
        break;
    case OP_MOVE_SPHERE:
        mbp_sphere_aabb(&a.sphere, &a.box);
        a.st = mbp_move_box(&test_w, a.h, &a.box);
        break;
#endif
    case OP_MOVE_BOX: a.st = mbp_move_box(&test_w, a.h, &a.box); break;
    case OP_SET_FILTER: a.st = mbp_set_filter(&test_w, a.h, 0x0003u, 0xFFFEu); break;
    case OP_REMOVE: a.st = mbp_remove(&test_w, a.h); break;
    case OP_UPDATE: a.st = mbp_update(&test_w); break;
    case OP_SORT_PAIRS: mbp_sort_pairs(&test_w); a.st = MBP_OK; break;
    case OP_NEXT_PAIR: a.found = mbp_next_pair(&test_w, &a.it, &a.pair); a.st = MBP_OK; break;
#if MBP_WITH_EVENTS
    case OP_BEGUN: a.st = mbp_begun(&test_w, &a.count) != NULL ? MBP_OK : MBP_E_PARAM; break;
#else
    case OP_BEGUN: a.st = test_begun(&test_w, &a.count) == NULL ? MBP_OK : MBP_E_PARAM; break;
#endif
    case OP_GET_BOX: a.st = mbp_get_box(&test_w, a.h, &a.box); break;
    case OP_QUERY_BOX: a.st = mbp_query_box(&test_w, &a.box, 0xFFFFu, a.idx, 8u, &a.count); break;
    case OP_QUERY_POINT: a.st = mbp_query_point(&test_w, a.p0, 0xFFFFu, a.idx, 8u, &a.count); break;
    case OP_QUERY_SPHERE:
        a.st = mbp_query_sphere(&test_w, &a.sphere, 0xFFFFu, a.idx, 8u, &a.count);
        break;
    case OP_RAYCAST:
        a.st = mbp_raycast(&test_w, a.p0, a.p1, 0xFFFFu, a.hits, 8u, &a.count);
        break;
    case OP_RAYCAST_FIRST:
        a.st = mbp_raycast_first(&test_w, a.p0, a.p1, 0xFFFFu, a.hits, &a.found);
        break;
    case OP_MOVE_BOXES: a.st = mbp_move_boxes(&test_w, 1u, &a.h, &a.box, &a.count); break;
    case OP_MOVE_BOX_AT: a.st = mbp_move_box_at(&test_w, a.index, &a.box); break;
    case OP_MOVE_BOXES_AT:
        a.st = mbp_move_boxes_at(&test_w, 1u, &a.index, &a.box, &a.count);
        break;
    case OP_REMOVE_AT: a.st = mbp_remove_at(&test_w, a.index); break;
    case OP_ADD_STATIC_BOX: a.st = mbp_add_static_box(&test_w, &a.box, 7u, &a.out_h); break;
    case OP_PAIRS: a.st = mbp_pairs(&test_w, &a.count) != NULL ? MBP_OK : MBP_E_PARAM; break;
    default: a.st = MBP_E_PARAM; break;
    }
#if STACK_MEASURED
    const volatile uint32_t *low = &__stack_bottom;
    while (low < sp && *low == PAINT) {
        low++;
    }
    __asm__ volatile("cpsie i" ::: "memory");
    return (uint32_t)((uintptr_t)sp - (uintptr_t)low);
#else
    return 0u;
#endif
}

/* Runs op, keeps its peak, and checks its status is one of the two given. */
static void call(int op, mbp_status ok1, mbp_status ok2)
{
    uint32_t used = run(op);
    if (used > peak[op]) {
        peak[op] = used;
    }
    if (a.st != ok1 && a.st != ok2) {
        test_puts(op_name[op]);
        test_puts(": ");
        CHECK_ST(a.st, ok1);
    }
}

static void set_box(uint32_t *rng)
{
    int32_t x = (int32_t)test_below(rng, 60u), y = (int32_t)test_below(rng, 60u);
    a.box = box2(x, y, x + 1 + (int32_t)test_below(rng, 2u), y + 1 + (int32_t)test_below(rng, 2u));
}

static void set_sphere(uint32_t *rng)
{
    a.sphere = sph((int32_t)test_below(rng, 60u), (int32_t)test_below(rng, 60u),
                   1 + (int32_t)test_below(rng, 2u));
}

/* A scene on one backend: adds, moves, filters, removes, updates, sorts, walks and queries.
 * Bodies are 1-2 units (spheres: radius 1-2), so each covers at most 2x2 grid cells and even the
 * M0's grid storage (4 entries per body) never runs out. */
static void scene(mbp_backend b, uint32_t seed)
{
    uint32_t rng = seed;
    mbp_body h[TEST_BODIES];
    uint32_t n = TEST_BODIES;
    mbp_params_default(&a.params);
    a.params.backend = b;
    call(OP_INIT, MBP_OK, MBP_OK);
    for (uint32_t i = 0; i < n; i++) {
        if (i % 3u == 2u) {
            set_sphere(&rng);
            call(OP_ADD_SPHERE, MBP_OK, MBP_OK);
        } else if (i % 7u == 3u) {
            set_box(&rng);
            call(OP_ADD_STATIC_BOX, MBP_OK, MBP_OK);
        } else {
            set_box(&rng);
            call(OP_ADD_BOX, MBP_OK, MBP_OK);
        }
        h[i] = a.out_h;
    }
    for (uint32_t f = 0; f < 12u && !mbp_test_failed(); f++) {
        call(OP_UPDATE, MBP_OK, MBP_E_PAIRS_FULL);
        call(OP_SORT_PAIRS, MBP_OK, MBP_OK);
        a.it = 0u;
        do {
            call(OP_NEXT_PAIR, MBP_OK, MBP_OK);
        } while (a.found);
        call(OP_BEGUN, MBP_OK, MBP_OK);
        call(OP_PAIRS, MBP_OK, MBP_OK);
        for (uint32_t m = 0; m < n / 3u; m++) {
            a.h = h[test_below(&rng, n)];
            a.index = (uint16_t)(a.h.slot1 - 1u);
            uint32_t kind = test_below(&rng, 3u);
            if (kind == 2u) {
                set_box(&rng);
                call((m & 1u) != 0u ? OP_MOVE_BOXES_AT : OP_MOVE_BOXES, MBP_OK, MBP_OK);
            } else if (kind == 0u) {
                set_box(&rng);
                call((m & 1u) != 0u ? OP_MOVE_BOX_AT : OP_MOVE_BOX, MBP_OK, MBP_OK);
            } else {
                set_sphere(&rng);
                call(OP_MOVE_SPHERE, MBP_OK, MBP_OK);
            }
        }
        a.h = h[f % n];
        call(OP_SET_FILTER, MBP_OK, MBP_OK);
        call(OP_GET_BOX, MBP_OK, MBP_OK);
        if (f % 4u == 3u) {
            a.index = (uint16_t)(a.h.slot1 - 1u);
            call(f % 8u == 7u ? OP_REMOVE_AT : OP_REMOVE, MBP_OK, MBP_OK);
            call(OP_UPDATE, MBP_OK, MBP_E_PAIRS_FULL);
            set_box(&rng);
            call(OP_ADD_BOX, MBP_OK, MBP_OK);
            h[f % n] = a.out_h;
        }
        set_box(&rng);
        call(OP_QUERY_BOX, MBP_OK, MBP_E_TRUNCATED);
        pt(a.p0, (int32_t)test_below(&rng, 60u), (int32_t)test_below(&rng, 60u));
        pt(a.p1, (int32_t)test_below(&rng, 60u), (int32_t)test_below(&rng, 60u));
        call(OP_QUERY_POINT, MBP_OK, MBP_E_TRUNCATED);
        call(OP_RAYCAST, MBP_OK, MBP_E_TRUNCATED);
        call(OP_RAYCAST_FIRST, MBP_OK, MBP_OK);
        set_sphere(&rng);
        call(OP_QUERY_SPHERE, MBP_OK, MBP_E_TRUNCATED);
    }
}

TEST(stack_peaks_of_the_public_functions_stay_within_their_static_bounds)
{
    uint32_t backends = 0u;
    for (int b = (int)MBP_BRUTE; b <= (int)MBP_QUADTREE && !mbp_test_failed(); b++) {
        mbp_params p;
        mbp_params_default(&p);
        p.backend = (mbp_backend)b;
        if (mbp_init(&test_w, &p) == MBP_E_BACKEND) {
            continue; /* not compiled in */
        }
        backends++;
        scene((mbp_backend)b, 0x5EED0000u + (uint32_t)b);
    }
    CHECK(backends > 0u);
#if STACK_MEASURED
    CHECK(peak[OP_UPDATE] > 0u); /* else the painting measured nothing */
    for (int op = 0; op < OP_COUNT; op++) {
        /* No call went deeper than its bound. (A leaf may use no stack at all: a peak of 0.) */
        CHECK(peak[op] <= op_bound[op]);
        if (TEST_STACK_REPORT || peak[op] > op_bound[op]) {
            test_puts("stack ");
            test_puts(op_name[op]);
            test_puts(" ");
            test_putu(peak[op]);
            test_puts(" ");
            test_putu(op_bound[op]);
            test_puts("\n");
        }
    }
    if (TEST_STACK_REPORT) {
        test_puts("stack-target " MBP_STACK_TARGET "\n");
    }
#endif
}
