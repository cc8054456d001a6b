/* test_shape_ref.c: every pair of shapes against the independent reference (test_shape_ref.h),
 * on random shapes near each other (about half of them overlapping), degenerate ones included.
 *
 * For each pair: a point deep inside both (the reference's certificate of overlap) means the
 * library must say overlap; a separating direction with a gap beyond the tolerance means it must
 * say apart, for the tests the library documents as exact (all but those with a 3D k-DOP, which
 * are conservative). The tolerance: float rounding (1/8192 units on shapes within +-16 units),
 * or in fixed point the rounding of axes (a few raw units; docs/shapes.md). Both orders of the
 * arguments must agree, and each shape's box must hold it (and be tight).
 */
#include "test_shape_gen.h"

/* Random cases per pair: many on the host, fewer on the QEMU machines. */
#define SHAPE_CASES (TEST_FRAMES >= 200u ? (MBP_DIM == 2 ? 300u : 200u) : 16u)

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
    bool exact = !(MBP_DIM == 3 && (ka == MBP_SHAPE_KDOP || kb == MBP_SHAPE_KDOP));
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
            if (lib && exact) {
                report("overlap reported for shapes apart", ka, kb, i, &a, &b, gap);
            }
            CHECK(!lib || !exact);
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
    /* The conservative tests (3D k-DOPs) may call a few apart pairs overlapping: at most 5%. */
    CHECK(st.loose * 20u <= st.apart + 20u);
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

TEST(boxes_and_spheres_through_the_shape_api_agree_with_the_reference)
{
    run_pair(MBP_SHAPE_BOX, MBP_SHAPE_BOX, 13u);
    run_pair(MBP_SHAPE_BOX, MBP_SHAPE_SPHERE, 14u);
    run_pair(MBP_SHAPE_SPHERE, MBP_SHAPE_SPHERE, 15u);
}
