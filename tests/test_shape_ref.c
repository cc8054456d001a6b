/* SPDX-License-Identifier: MIT */
/* test_shape_ref.c: every pair of shapes against the independent reference (test_shape_ref.h),
 * on random shapes near each other (about half of them overlapping), degenerate ones included.
 *
 * For each pair: a point deep inside both (the reference's certificate of overlap) means the
 * library must say overlap; a separating direction with a gap beyond the tolerance means it must
 * say apart (every test is documented as exact). The tolerance: float rounding (1/8192 units on shapes within +-16 units),
 * or in fixed point the rounding of axes (a few raw units; docs/shapes.md). Both orders of the
 * arguments must agree, and each shape's box must hold it (and be tight).
 */
#include "test_shape_gen.h"

/* Random cases per pair: many on the host, fewer on the QEMU machines (-DSHAPE_CASES=n for a
 * longer run). */
#ifndef SHAPE_CASES
#define SHAPE_CASES (TEST_FRAMES >= 200u ? (MBP_DIM == 2 ? 300u : 200u) : 16u)
#endif

#if MBP_SCALAR == MBP_FIXED
#define TOL_APART (8.0 / MBP_ONE) /* raw units */
#define EPS_DEEP 1e-9
#else
#define TOL_APART (1.0 / 8192)
#define EPS_DEEP (1.0 / 8192)
#endif

typedef struct {
    uint32_t cases, overlap, apart, loose; /* loose: apart, reported overlapping */
} pair_stats;

static void report(const char *what, int ka, int kb, uint32_t i, const mbp_shape *a,
                   const mbp_shape *b, double gap)
{
    test_puts("  ");
    test_puts(what);
    test_puts(": kinds ");
    test_putu((uint32_t)ka);
    test_puts("/");
    test_putu((uint32_t)kb);
    test_puts(" case ");
    test_putu(i);
    test_puts(" gap*2^20 ");
    test_puti((long)(gap * 1048576.0));
    test_puts("\n");
    (void)a;
    (void)b;
}

/* The box of s holds it, and is tight (within the tolerance). */
static void check_box(const mbp_shape *s, const ref_shape *r)
{
    mbp_aabb box;
    mbp_shape_aabb(s, &box);
    CHECK_ST(mbp_aabb_check(&box), MBP_OK);
    for (int k = 0; k < MBP_DIM; k++) {
        double e[3] = {0, 0, 0};
        e[k] = 1;
        double hi = ref_support(r, e);
        e[k] = -1;
        double lo = -ref_support(r, e);
#if MBP_SCALAR == MBP_FIXED
        const double slack = 1e-9, tight = (double)MBP_DIM / MBP_ONE; /* a raw unit per term */
#else
        const double slack = 1e-5, tight = 1e-5;
#endif
        CHECK(ref_d(box.max[k]) >= hi - slack && ref_d(box.min[k]) <= lo + slack);
        CHECK(ref_d(box.max[k]) <= hi + tight && ref_d(box.min[k]) >= lo - tight);
    }
}

static void run_pair(int ka, int kb, uint32_t seed)
{
    static ref_shape ra, rb; /* static: the M0's stack is small */
    if (!gen_kind_on(ka) || !gen_kind_on(kb)) {
        return;
    }
    pair_stats st = {0u, 0u, 0u, 0u};
    uint32_t rng = seed * 2654435761u + (uint32_t)(ka * 7 + kb) * 97u + 1u;
    for (uint32_t i = 0; i < SHAPE_CASES && !mbp_test_failed(); i++) {
        mbp_shape a, b;
        int32_t c0[3] = {0, 0, 0}, c1[3];
        for (int k = 0; k < 3; k++) {
            c1[k] = gen_int(&rng, MBP_DIM == 2 ? -224 : -160, MBP_DIM == 2 ? 224 : 160);
        }
        gen_shape(&rng, ka, c0, &a);
        gen_shape(&rng, kb, c1, &b);
        CHECK_ST(mbp_shape_check(&a), MBP_OK);
        CHECK_ST(mbp_shape_check(&b), MBP_OK);
        bool lib = mbp_shape_overlap(&a, &b);
        CHECK(lib == mbp_shape_overlap(&b, &a));
        ref_from(&a, &ra);
        ref_from(&b, &rb);
        check_box(&a, &ra);
        check_box(&b, &rb);
        double gap = ref_gap(&ra, &rb);
        bool deep = gap <= TOL_APART && ref_common(&ra, &rb, EPS_DEEP, MBP_DIM == 2 ? 16 : 8);
        st.cases++;
        if (deep) {
            st.overlap++;
            if (!lib) {
                report("missed overlap", ka, kb, i, &a, &b, gap);
            }
            CHECK(lib);
        } else if (gap > TOL_APART) {
            st.apart++;
            st.loose += lib ? 1u : 0u;
            if (lib) {
                report("overlap reported for shapes apart", ka, kb, i, &a, &b, gap);
            }
            CHECK(!lib);
        }
    }
#ifdef SHAPE_STATS
    test_puts("  stats ");
    test_putu((uint32_t)ka);
    test_puts("/");
    test_putu((uint32_t)kb);
    test_puts(": overlap ");
    test_putu(st.overlap);
    test_puts(" apart ");
    test_putu(st.apart);
    test_puts(" loose ");
    test_putu(st.loose);
    test_puts(" of ");
    test_putu(st.cases);
    test_puts("\n");
#endif
    /* The reference must have decided nearly every case, both ways, or the test says little. */
    CHECK(st.overlap > 0u && st.apart > 0u);
    CHECK(st.cases < 100u || (st.overlap * 5u >= st.cases && st.apart * 5u >= st.cases));
    CHECK((st.overlap + st.apart) * 10u >= st.cases * 9u);
}

TEST(boxes_against_oriented_boxes_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_BOX, MBP_SHAPE_OBB, 1u);
}

TEST(oriented_boxes_against_each_other_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_OBB, MBP_SHAPE_OBB, 2u);
}

TEST(spheres_against_oriented_boxes_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_SPHERE, MBP_SHAPE_OBB, 3u);
}

TEST(kdops_against_boxes_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_BOX, MBP_SHAPE_KDOP, 4u);
}

TEST(kdops_against_spheres_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_SPHERE, MBP_SHAPE_KDOP, 5u);
}

TEST(kdops_against_oriented_boxes_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_OBB, MBP_SHAPE_KDOP, 6u);
}

TEST(kdops_against_each_other_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_KDOP, MBP_SHAPE_KDOP, 7u);
}

TEST(capsules_against_boxes_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_BOX, MBP_SHAPE_CAPSULE, 8u);
}

TEST(capsules_against_spheres_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_SPHERE, MBP_SHAPE_CAPSULE, 9u);
}

TEST(capsules_against_oriented_boxes_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_OBB, MBP_SHAPE_CAPSULE, 10u);
}

TEST(capsules_against_kdops_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_KDOP, MBP_SHAPE_CAPSULE, 11u);
}

TEST(capsules_against_each_other_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_CAPSULE, MBP_SHAPE_CAPSULE, 12u);
}

TEST(rss_against_boxes_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_BOX, MBP_SHAPE_RSS, 16u);
}

TEST(rss_against_spheres_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_SPHERE, MBP_SHAPE_RSS, 17u);
}

TEST(rss_against_oriented_boxes_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_OBB, MBP_SHAPE_RSS, 18u);
}

TEST(rss_against_kdops_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_KDOP, MBP_SHAPE_RSS, 19u);
}

TEST(rss_against_capsules_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_CAPSULE, MBP_SHAPE_RSS, 20u);
}

TEST(rss_against_each_other_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_RSS, MBP_SHAPE_RSS, 21u);
}

TEST(boxes_and_spheres_through_the_shape_api_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_BOX, MBP_SHAPE_BOX, 13u);
    run_pair(MBP_SHAPE_BOX, MBP_SHAPE_SPHERE, 14u);
    run_pair(MBP_SHAPE_SPHERE, MBP_SHAPE_SPHERE, 15u);
}

/* 3D capsules beside 14-DOPs, found by a random search, that only the last axes of
 * mbp__kdop_vs() separate: the k-DOP's own axes with its exact extent (the given bounds are
 * loose or meet only in a point), and the perpendicular from the vertex nearest the segment. The
 * reference proves each pair apart (on the host, with its finest sweep); the library must say so,
 * in both argument orders, everywhere. */
TEST(capsules_beside_kdops_that_only_the_last_axes_separate)
{
#if MBP_DIM == 3 && MBP_WITH_KDOP && MBP_WITH_CAPSULE
    static const int8_t k[4][14] = { /* min[7], max[7] */
        {5, -2, 2, 5, 1, 9, -5, 5, 4, 6, 5, 1, 9, -5},
        {2, 4, -6, 0, 12, -8, -4, 2, 4, -4, 0, 12, -8, 0},
        {-3, -5, -5, -10, -7, 0, -10, 8, 2, 6, 10, 0, 8, 11},
        {-8, 2, 1, -1, -10, -13, 6, -1, 6, 8, 6, -2, 2, 15},
    };
    static const int8_t c[4][7] = { /* a, b, r in quarters */
        {-1, 6, 5, 5, -12, 5, 5},
        {2, 2, 3, -7, 11, -7, 11},
        {-14, -6, -1, 12, -6, -9, 4},
        {-2, -9, 7, -2, 10, -10, 12},
    };
    static ref_shape ra, rb;
    for (int i = 0; i < 4; i++) {
        mbp_shape a, b;
        a.kind = MBP_SHAPE_KDOP;
        b.kind = MBP_SHAPE_CAPSULE;
        for (int j = 0; j < 7; j++) {
            a.u.kdop.min[j] = mbp_from_int(k[i][j]);
            a.u.kdop.max[j] = mbp_from_int(k[i][7 + j]);
        }
        for (int d = 0; d < 3; d++) {
            b.u.capsule.a[d] = mbp_from_int(c[i][d]);
            b.u.capsule.b[d] = mbp_from_int(c[i][3 + d]);
        }
        b.u.capsule.r = mbp_from_ratio(c[i][6], 4);
        CHECK_ST(mbp_shape_check(&a), MBP_OK);
        CHECK_ST(mbp_shape_check(&b), MBP_OK);
        ref_from(&a, &ra);
        ref_from(&b, &rb);
        if (TEST_FRAMES >= 200u) { /* the QEMU machines' coarser sweep cannot prove it */
            CHECK(ref_gap(&ra, &rb) > TOL_APART);
        }
        CHECK(!mbp_shape_overlap(&a, &b));
        CHECK(!mbp_shape_overlap(&b, &a));
    }
#endif
}
