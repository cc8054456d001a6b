/* test_sweep.c: the single-axis sort-and-sweep backend, and twin_run(), which test_sap.c uses too.
 *
 * twin_run() drives two worlds through the same random scene, one with the backend and params
 * under test (test_w), one with brute force (test_w2), and compares after every update the status,
 * the sorted pairs and both event lists; unlike diff_run() it takes any params.
 */
#include "diff.h"

#ifndef TEST_FRAMES
#define TEST_FRAMES 60u
#endif
#ifndef TEST_SEEDS
#define TEST_SEEDS 3u
#endif

/* ---- twin_run: backend under test against brute force, same calls ---- */

typedef struct {
    uint32_t seed;
    uint32_t bodies;    /* target live count */
    uint32_t frames;
    uint32_t teleport;  /* per 1000 bodies per frame */
    uint32_t churn;     /* per 1000 frames: a remove and an add */
    int32_t extent;     /* world side in units; 0 picks about one overlap per body */
} twin_opts;

uint32_t twin_run(const mbp_params *p, const twin_opts *o);
bool twin_same(bool events);

typedef struct {
    bool live;
    int32_t lo[MBP_DIM], hi[MBP_DIM]; /* quarter units */
    int32_t vel[MBP_DIM];
    mbp_body h;
} tbody;

static tbody g_tb[MBP_MAX_BODIES];

static mbp_aabb t_box(const tbody *b)
{
    mbp_aabb x;
    for (int k = 0; k < MBP_DIM; k++) {
        x.min[k] = mbp_from_ratio(b->lo[k], 4);
        x.max[k] = mbp_from_ratio(b->hi[k], 4);
    }
    return x;
}

static void t_place(uint32_t *rng, tbody *b, int32_t ext)
{
    for (int k = 0; k < MBP_DIM; k++) {
        int32_t size = (int32_t)test_below(rng, 9u); /* zero-size boxes too */
        b->lo[k] = (int32_t)test_below(rng, (uint32_t)(ext - size + 1));
        b->hi[k] = b->lo[k] + size;
        b->vel[k] = (int32_t)test_below(rng, 5u) - 2;
    }
}

/* True when both worlds hold the same sorted pairs (and the same events when asked). */
bool twin_same(bool events)
{
    mbp_sort_pairs(&test_w);
    mbp_sort_pairs(&test_w2);
    uint32_t i1 = 0, i2 = 0;
    mbp_pair p1, p2;
    bool ok = mbp_pair_count(&test_w) == mbp_pair_count(&test_w2);
    while (ok && mbp_next_pair(&test_w, &i1, &p1)) {
        ok = mbp_next_pair(&test_w2, &i2, &p2) && p1.a == p2.a && p1.b == p2.b;
    }
    for (int kind = 0; events && ok && kind < 2; kind++) {
        uint32_t n1, n2;
        const mbp_pair *e1 = kind ? mbp_ended(&test_w, &n1) : mbp_begun(&test_w, &n1);
        const mbp_pair *e2 = kind ? mbp_ended(&test_w2, &n2) : mbp_begun(&test_w2, &n2);
        ok = n1 == n2;
        for (uint32_t i = 0; ok && i < n1; i++) {
            ok = e1[i].a == e2[i].a && e1[i].b == e2[i].b;
        }
    }
    return ok;
}

static void t_add(uint32_t *rng, uint32_t i, int32_t ext)
{
    (void)i;
    tbody b;
    t_place(rng, &b, ext);
    mbp_aabb x = t_box(&b);
    mbp_body h2;
    mbp_status st = mbp_add_box(&test_w, &x, 0u, &b.h);
    CHECK_ST(mbp_add_box(&test_w2, &x, 0u, &h2), st);
    if (st != MBP_OK) {
        return;
    }
    CHECK_EQ(mbp_index(b.h), mbp_index(h2));
    b.live = true;
    g_tb[mbp_index(b.h)] = b;
}

uint32_t twin_run(const mbp_params *p, const twin_opts *o)
{
    mbp_params p2 = *p;
    p2.backend = MBP_BRUTE;
    CHECK_ST(mbp_init(&test_w, p), MBP_OK);
    CHECK_ST(mbp_init(&test_w2, &p2), MBP_OK);
    uint32_t rng = o->seed * 2654435761u + 7u;
    int32_t ext = o->extent;
    if (ext == 0) {
        ext = 8;
        while ((uint32_t)ext * (uint32_t)ext * (MBP_DIM == 3 ? (uint32_t)ext : 1u) <
               o->bodies * (MBP_DIM == 3 ? 20u : 10u)) {
            ext++;
        }
    }
    ext *= 4;
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        g_tb[i].live = false;
    }
    uint32_t bad = 0;
    for (uint32_t f = 0; f < o->frames && bad < 3u; f++) {
        uint32_t live = 0;
        for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
            tbody *b = &g_tb[i];
            if (!b->live) {
                continue;
            }
            if (test_below(&rng, 1000u) < o->churn) {
                CHECK_ST(mbp_remove(&test_w, b->h), MBP_OK);
                CHECK_ST(mbp_remove(&test_w2, mbp_handle(&test_w2, (uint16_t)i)), MBP_OK);
                b->live = false;
                continue;
            }
            live++;
            if (test_below(&rng, 1000u) < o->teleport) {
                t_place(&rng, b, ext);
            } else {
                for (int k = 0; k < MBP_DIM; k++) {
                    if (b->lo[k] + b->vel[k] < 0 || b->hi[k] + b->vel[k] > ext) {
                        b->vel[k] = -b->vel[k];
                    }
                    b->lo[k] += b->vel[k];
                    b->hi[k] += b->vel[k];
                }
            }
            mbp_aabb x = t_box(b);
            CHECK_ST(mbp_move_box(&test_w, b->h, &x), MBP_OK);
            CHECK_ST(mbp_move_box(&test_w2, mbp_handle(&test_w2, (uint16_t)i), &x), MBP_OK);
        }
        for (; live < o->bodies; live++) {
            t_add(&rng, live, ext);
        }
        mbp_status s1 = mbp_update(&test_w);
        mbp_status s2 = mbp_update(&test_w2);
        CHECK_ST(s1, s2);
        if (s1 != s2 || !twin_same(true)) {
            test_puts("  twin mismatch at frame ");
            test_putu(f);
            test_puts("\n");
            bad++;
        }
    }
    CHECK_EQ(bad, 0);
    return bad;
}

/* ---- sort and sweep ---- */

static void sweep_params(mbp_params *p, uint8_t axis)
{
    mbp_params_default(p);
    p->backend = MBP_SWEEP;
    p->sweep_axis = axis;
}

TEST(sweep_matches_brute_force_on_every_fixed_axis_and_on_the_auto_axis)
{
    for (uint8_t ax = 0; ax <= MBP_DIM; ax++) {
        mbp_params p;
        sweep_params(&p, ax < MBP_DIM ? ax : (uint8_t)MBP_AXIS_AUTO);
        for (uint32_t seed = 1; seed <= TEST_SEEDS; seed++) {
            twin_opts o = {seed, TEST_BODIES, TEST_FRAMES, 10u, 20u, 0};
            if (twin_run(&p, &o) != 0u) {
                return;
            }
        }
    }
}

TEST(sweep_matches_the_oracle_in_long_runs_of_lines_teleports_and_bursts)
{
    static const diff_scene scenes[] = {SCENE_LINE, SCENE_TELEPORT, SCENE_BURST, SCENE_IDENTICAL};
    for (uint32_t s = 0; s < sizeof scenes / sizeof scenes[0]; s++) {
        for (uint32_t seed = 11; seed < 11u + TEST_SEEDS; seed++) {
            diff_opts o = {seed, TEST_BODIES, 2u * TEST_FRAMES, scenes[s], true, seed % 2u == 0u};
            if (diff_run(MBP_SWEEP, &o) != 0u) {
                return;
            }
        }
    }
}

TEST(sweep_refuses_an_axis_beyond_the_dimension)
{
    mbp_params p;
    sweep_params(&p, (uint8_t)MBP_DIM);
    CHECK_ST(mbp_init(&test_w, &p), MBP_E_PARAM);
    sweep_params(&p, (uint8_t)(MBP_DIM - 1));
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
}

/* Bodies on a row along the last axis: the auto axis follows the spread. */
TEST(sweep_auto_axis_picks_the_axis_along_which_bodies_spread)
{
    mbp_params p;
    sweep_params(&p, (uint8_t)MBP_AXIS_AUTO);
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    uint32_t n = TEST_BODIES;
    static mbp_body h[TEST_BODIES];
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b;
        for (int k = 0; k < MBP_DIM; k++) {
            int32_t at = k == MBP_DIM - 1 ? 3 * (int32_t)i : (int32_t)(i % 2u);
            b.min[k] = mbp_from_int(at);
            b.max[k] = mbp_from_int(at + 2);
        }
        CHECK_ST(mbp_add_box(&test_w, &b, i, &h[i]), MBP_OK);
    }
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(test_w.be.sweep.axis, MBP_DIM - 1);
    /* Rows of 3 units with boxes of 2: no pairs, and only a few tests on this axis. */
    CHECK_EQ(mbp_pair_count(&test_w), 0);
    CHECK(test_w.stats.tests <= n);
    /* Now spread them along axis 0: the axis switches. */
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b;
        for (int k = 0; k < MBP_DIM; k++) {
            int32_t at = k == 0 ? 3 * (int32_t)i : 0;
            b.min[k] = mbp_from_int(at);
            b.max[k] = mbp_from_int(at + 2);
        }
        CHECK_ST(mbp_move_box(&test_w, h[i], &b), MBP_OK);
    }
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    CHECK_EQ(test_w.be.sweep.axis, 0);
    CHECK(test_w.stats.tests <= n);
}

/* Coherent motion keeps the insertion sort; a frame of teleports falls back to the heap sort. */
TEST(sweep_insertion_sort_gives_way_to_heap_sort_when_bodies_teleport)
{
    mbp_params p;
    sweep_params(&p, 0u);
    CHECK_ST(mbp_init(&test_w, &p), MBP_OK);
    uint32_t n = TEST_BODIES, rng = 5u;
    static mbp_body h[MBP_MAX_BODIES];
    static int32_t x[MBP_MAX_BODIES];
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b;
        x[i] = 4 * (int32_t)i;
        for (int k = 0; k < MBP_DIM; k++) {
            b.min[k] = mbp_from_int(k == 0 ? x[i] : 0);
            b.max[k] = mbp_from_int(k == 0 ? x[i] + 1 : 1);
        }
        CHECK_ST(mbp_add_box(&test_w, &b, i, &h[i]), MBP_OK);
    }
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    uint32_t sorts = test_w.be.sweep.heap_sorts;
    for (uint32_t f = 0; f < 20u; f++) {
        for (uint32_t i = 0; i < n; i++) {
            mbp_aabb b;
            x[i] += (int32_t)test_below(&rng, 5u) - 2; /* neighbours 4 apart: a few swaps */
            for (int k = 0; k < MBP_DIM; k++) {
                b.min[k] = mbp_from_int(k == 0 ? x[i] : 0);
                b.max[k] = mbp_from_int(k == 0 ? x[i] + 1 : 1);
            }
            CHECK_ST(mbp_move_box(&test_w, h[i], &b), MBP_OK);
        }
        CHECK_ST(mbp_update(&test_w), MBP_OK);
        CHECK(test_w.be.sweep.shifts_last <= n);
    }
    CHECK_EQ(test_w.be.sweep.heap_sorts, sorts);
    /* Reverse the order: n^2/2 inversions, beyond the budget. */
    for (uint32_t i = 0; i < n; i++) {
        mbp_aabb b;
        x[i] = 4 * (int32_t)(n - i);
        for (int k = 0; k < MBP_DIM; k++) {
            b.min[k] = mbp_from_int(k == 0 ? x[i] : 0);
            b.max[k] = mbp_from_int(k == 0 ? x[i] + 4 : 1);
        }
        CHECK_ST(mbp_move_box(&test_w, h[i], &b), MBP_OK);
    }
    CHECK_ST(mbp_update(&test_w), MBP_OK);
    if (n >= 16u) {
        CHECK_EQ(test_w.be.sweep.heap_sorts, sorts + 1u);
    }
    CHECK_EQ(mbp_pair_count(&test_w), n - 1u); /* touching neighbours */
    for (uint32_t i = 1; i < test_w.be.sweep.count; i++) {
        uint16_t a = test_w.be.sweep.order[i - 1u], b = test_w.be.sweep.order[i];
        CHECK(test_w.box[a].min[0] <= test_w.box[b].min[0]);
    }
}

/* Queries through the sorted axis, with some bodies moved since the update, against brute force. */
TEST(sweep_queries_match_brute_force_with_bodies_moved_since_the_update)
{
    mbp_params p;
    sweep_params(&p, (uint8_t)MBP_AXIS_AUTO);
    twin_opts o = {3u, TEST_BODIES, 5u, 0u, 0u, 0};
    twin_run(&p, &o);
    uint32_t rng = 99u;
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i += 3u) { /* move a third without an update */
        if (g_tb[i].live) {
            t_place(&rng, &g_tb[i], 40);
            mbp_aabb x = t_box(&g_tb[i]);
            CHECK_ST(mbp_move_box(&test_w, g_tb[i].h, &x), MBP_OK);
            CHECK_ST(mbp_move_box(&test_w2, mbp_handle(&test_w2, (uint16_t)i), &x), MBP_OK);
        }
    }
    static uint16_t r1[MBP_MAX_BODIES], r2[MBP_MAX_BODIES];
    for (uint32_t q = 0; q < 50u; q++) {
        tbody t;
        t_place(&rng, &t, 40);
        mbp_aabb box = t_box(&t);
        uint32_t n1, n2;
        CHECK_ST(mbp_query_box(&test_w, &box, 0xFFFFu, r1, MBP_MAX_BODIES, &n1), MBP_OK);
        CHECK_ST(mbp_query_box(&test_w2, &box, 0xFFFFu, r2, MBP_MAX_BODIES, &n2), MBP_OK);
        CHECK_EQ(n1, n2);
        for (uint32_t i = 0; i < n1 && i < n2; i++) {
            CHECK_EQ(r1[i], r2[i]);
        }
    }
}

TEST(sweep_keeps_two_bytes_per_body)
{
    CHECK(sizeof(mbp_sweep_state) <= 2u * MBP_MAX_BODIES + 24u);
}
