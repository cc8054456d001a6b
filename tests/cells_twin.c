/* cells_twin.c: see cells_twin.h. */
#include "cells_twin.h"

static mbp_body g_h[MBP_MAX_BODIES];  /* handles in test_w, by index */
static mbp_body g_h2[MBP_MAX_BODIES]; /* the same bodies in test_w2 */
static bool g_live[MBP_MAX_BODIES];

void cells_params(mbp_params *p, mbp_backend b, int32_t cell)
{
    mbp_params_default(p);
    p->backend = b;
    p->cell_size = mbp_from_int(cell);
}

void twin_init(const mbp_params *p)
{
    mbp_params p2 = *p;
    p2.backend = MBP_BRUTE;
    CHECK_ST(mbp_init(&test_w, p), MBP_OK);
    CHECK_ST(mbp_init(&test_w2, &p2), MBP_OK);
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        g_live[i] = false;
    }
}

/* Adds to both worlds; returns the status of test_w, and the index in *index on MBP_OK. */
mbp_status twin_add(const mbp_aabb *b, uint16_t *index)
{
    mbp_body h, h2;
    mbp_status st = mbp_add_box(&test_w, b, 0u, &h);
    if (st != MBP_OK) {
        return st;
    }
    CHECK_ST(mbp_add_box(&test_w2, b, 0u, &h2), MBP_OK);
    uint16_t i = mbp_index(h);
    CHECK_EQ(i, mbp_index(h2)); /* both worlds hand out slots in the same order */
    g_h[i] = h;
    g_h2[i] = h2;
    g_live[i] = true;
    if (index != NULL) {
        *index = i;
    }
    return MBP_OK;
}

#if MBP_WITH_SPHERES
mbp_status twin_add_sphere(const mbp_sphere *s)
{
    mbp_body h, h2;
    mbp_status st = mbp_add_sphere(&test_w, s, 0u, &h);
    if (st == MBP_OK) {
        CHECK_ST(mbp_add_sphere(&test_w2, s, 0u, &h2), MBP_OK);
        CHECK_EQ(mbp_index(h), mbp_index(h2));
        g_h[mbp_index(h)] = h;
        g_h2[mbp_index(h)] = h2;
        g_live[mbp_index(h)] = true;
    }
    return st;
}
#endif

/* Moves in both worlds; on failure test_w must keep the old box, and test_w2 is not moved. */
mbp_status twin_move(uint16_t i, const mbp_aabb *b)
{
    mbp_aabb before, after;
    CHECK_ST(mbp_get_box(&test_w, g_h[i], &before), MBP_OK);
    mbp_status st = mbp_move_box(&test_w, g_h[i], b);
    if (st == MBP_OK) {
        CHECK_ST(mbp_move_box(&test_w2, g_h2[i], b), MBP_OK);
    } else {
        CHECK_ST(mbp_get_box(&test_w, g_h[i], &after), MBP_OK);
        for (int k = 0; k < MBP_DIM; k++) {
            CHECK(after.min[k] == before.min[k] && after.max[k] == before.max[k]);
        }
    }
    return st;
}

void twin_remove(uint16_t i)
{
    CHECK_ST(mbp_remove(&test_w, g_h[i]), MBP_OK);
    CHECK_ST(mbp_remove(&test_w2, g_h2[i]), MBP_OK);
    g_live[i] = false;
}

bool twin_live(uint16_t i)
{
    return g_live[i];
}

static bool same_events(const mbp_pair *a, uint32_t na, const mbp_pair *b, uint32_t nb)
{
    bool ok = na == nb;
    for (uint32_t k = 0; ok && k < na; k++) {
        ok = a[k].a == b[k].a && a[k].b == b[k].b;
    }
    return ok;
}

/* Updates both worlds and compares everything; true when all agrees. */
bool twin_update(void)
{
    mbp_status st = mbp_update(&test_w);
    mbp_status st2 = mbp_update(&test_w2);
    CHECK_ST(st, MBP_OK);
    CHECK_ST(st2, MBP_OK);
    bool ok = st == MBP_OK && st2 == MBP_OK;
    ok = ok && mbp_pair_count(&test_w) == mbp_pair_count(&test_w2);
    CHECK_EQ(mbp_pair_count(&test_w), mbp_pair_count(&test_w2));
    mbp_sort_pairs(&test_w);
    mbp_sort_pairs(&test_w2);
    uint32_t it = 0, it2 = 0;
    mbp_pair p, p2;
    while (ok && mbp_next_pair(&test_w, &it, &p)) {
        ok = mbp_next_pair(&test_w2, &it2, &p2) && p.a == p2.a && p.b == p2.b;
    }
    uint32_t n, n2;
    const mbp_pair *e = mbp_begun(&test_w, &n), *e2 = mbp_begun(&test_w2, &n2);
    ok = ok && same_events(e, n, e2, n2);
    e = mbp_ended(&test_w, &n);
    e2 = mbp_ended(&test_w2, &n2);
    ok = ok && same_events(e, n, e2, n2);
    CHECK(ok);
    return ok;
}

/* A box query in both worlds: the same bodies, each once. */
bool twin_query(const mbp_aabb *q)
{
    static uint16_t out[MBP_MAX_BODIES], out2[MBP_MAX_BODIES];
    uint32_t n = 0, n2 = 0;
    CHECK_ST(mbp_query_box(&test_w, q, 0xFFFFu, out, MBP_MAX_BODIES, &n), MBP_OK);
    CHECK_ST(mbp_query_box(&test_w2, q, 0xFFFFu, out2, MBP_MAX_BODIES, &n2), MBP_OK);
    bool ok = n == n2;
    for (uint32_t k = 0; ok && k < n; k++) {
        ok = out[k] == out2[k];
    }
    CHECK(ok);
    return ok;
}

/* Whole units in [lo, hi - size] with a size in [0, maxsize]: borders of integer cells are hit
 * all the time. */
mbp_aabb rand_box(uint32_t *r, int32_t lo, int32_t hi, int32_t maxsize)
{
    mbp_aabb b;
    for (int k = 0; k < MBP_DIM; k++) {
        int32_t size = (int32_t)test_below(r, (uint32_t)maxsize + 1u);
        int32_t pos = lo + (int32_t)test_below(r, (uint32_t)(hi - lo - size + 1));
        b.min[k] = mbp_from_int(pos);
        b.max[k] = mbp_from_int(pos + size);
    }
    return b;
}

/* An add or move in a random scene: MBP_OK, or MBP_E_NOROOM only when the entry pool really
 * cannot hold one more body (small configs run out; the twin check stays exact either way). */
static void scene_status(mbp_status st)
{
    if (st != MBP_OK) {
        CHECK_ST(st, MBP_E_NOROOM);
#ifdef CELLS
        CHECK(CELLS(test_w)->free_count < MBP_GRID_MAX_CELLS_PER_BODY);
#endif
    }
}

/* A random scene of n bodies in [lo, hi] (moves, teleports, removes, adds, queries) run on both
 * worlds; returns the number of frames that disagreed. */
uint32_t twin_scene(const mbp_params *p, uint32_t seed, uint32_t n, uint32_t frames, int32_t lo,
                    int32_t hi, int32_t maxsize)
{
    uint32_t r = seed * 2654435761u + 7u, bad = 0;
    twin_init(p);
    for (uint32_t k = 0; k < n; k++) {
        mbp_aabb b = rand_box(&r, lo, hi, maxsize);
        scene_status(twin_add(&b, NULL));
    }
    for (uint32_t f = 0; f < frames && bad < 3u; f++) {
        for (uint16_t i = 0; i < MBP_MAX_BODIES; i++) {
            if (!g_live[i]) {
                continue;
            }
            uint32_t what = test_below(&r, 40u);
            if (what == 0u) {
                twin_remove(i);
            } else if (what <= 2u) {
                mbp_aabb b = rand_box(&r, lo, hi, maxsize);
                scene_status(twin_move(i, &b));
            } else if (what <= 20u) {
                mbp_aabb b;
                CHECK_ST(mbp_get_box(&test_w, g_h[i], &b), MBP_OK);
                for (int k = 0; k < MBP_DIM; k++) {
                    mbp_scalar d = mbp_from_ratio((int32_t)test_below(&r, 9u) - 4, 2);
                    b.min[k] += d;
                    b.max[k] += d;
                }
                scene_status(twin_move(i, &b));
            }
        }
        for (uint32_t k = 0; k < 2u; k++) {
            mbp_aabb b = rand_box(&r, lo, hi, maxsize);
            mbp_status st = twin_add(&b, NULL);
            if (st != MBP_E_FULL) {
                scene_status(st);
            }
        }
        if (!twin_update()) {
            test_puts("  twin mismatch at frame ");
            test_putu(f);
            test_puts("\n");
            bad++;
        }
        mbp_aabb q = rand_box(&r, lo, hi, 4 * maxsize);
        bad += twin_query(&q) ? 0u : 1u;
    }
    return bad;
}


/* Three more seeds of every scene of the differential suite for one backend, with spheres and
 * filters switched on in turn. Boxes on one line are kept to a third of the bodies: with more,
 * 3D pairs outgrow the test configs' pair set for brute force too. */
void cells_extra_diff(mbp_backend b, uint32_t first_seed)
{
    for (uint32_t seed = first_seed; seed < first_seed + 3u; seed++) {
        for (uint32_t sc = 0; sc < (uint32_t)SCENE_COUNT; sc++) {
            uint32_t n = TEST_BODIES * (sc == (uint32_t)SCENE_LINE ? 1u : seed % 3u + 1u) / 3u;
            diff_opts o = {seed, n, TEST_FRAMES, (diff_scene)sc, seed % 2u == 0u, sc % 2u == 1u};
            CHECK_EQ(diff_run(b, &o), 0);
        }
    }
}

/* n identical boxes spanning several cells each, plus n points in one of those cells: every
 * pair must be box-tested exactly once (stats.tests), however many cells it shares. */
#ifdef CELLS
void cells_tested_once_check(const mbp_params *p)
{
    twin_init(p);
    uint32_t n = MBP_MAX_BODIES / 4u < 6u ? MBP_MAX_BODIES / 4u : 6u;
    mbp_aabb b = box2(-1, -1, 0, 0); /* 2 cells of 1 unit per axis: [-1, 0.5] */
    for (int k = 0; k < MBP_DIM; k++) {
        b.max[k] = mbp_from_ratio(1, 2);
    }
    for (uint32_t k = 0; k < n; k++) {
        CHECK_ST(twin_add(&b, NULL), MBP_OK);
    }
    for (int k = 0; k < MBP_DIM; k++) { /* a point in cell 0 */
        b.min[k] = b.max[k] = mbp_from_ratio(1, 4);
    }
    for (uint32_t k = 0; k < n; k++) {
        CHECK_ST(twin_add(&b, NULL), MBP_OK);
    }
    CHECK_EQ(CELLS(test_w)->free_count, MBP_GRID_MAX_ENTRIES - n * (1u + (1u << MBP_DIM)));
    CHECK(twin_update());
    CHECK_EQ(mbp_pair_count(&test_w), n * (2u * n - 1u));
    CHECK_EQ(mbp_get_stats(&test_w)->tests, n * (2u * n - 1u));
}
#endif

/* Fills the entry pool with bodies of side^MBP_DIM cells each until add returns MBP_E_NOROOM,
 * checks that a move needing more cells than are free fails and leaves the body as it was, then
 * that removing a body makes room; every update along the way must match brute force. For hgrid
 * the cells are sized so that these bodies land on the coarsest level, in 1-unit cells. */
#ifdef CELLS
void cells_noroom_check(mbp_backend backend)
{
    mbp_params p;
    cells_params(&p, backend, 1);
    if (backend == MBP_HGRID) {
        p.cell_size = mbp_from_ratio(1, 1 << (MBP_HGRID_LEVELS - 1));
    }
    const int32_t side = MBP_DIM == 2 ? 4 : 2;
    const uint32_t per = MBP_DIM == 2 ? 16u : 8u;
    for (int k = 0; k < MBP_DIM; k++) { /* a long grid from -64 on x, side cells across */
        uint32_t n = MBP_GRID_MAX_CELLS / (per / (uint32_t)side);
        p.grid_cells[k] = (uint16_t)(k == 0 ? (n < 65535u ? n : 65535u) : (uint32_t)side);
        p.grid_origin[k] = mbp_from_int(k == 0 ? -64 : 0);
    }
    twin_init(&p);
    const mbp_scalar half = mbp_from_ratio(1, 2);
    uint16_t pnt, last = 0xFFFFu;
    /* A point: one cell. */
    mbp_aabb b = box2(-40, -40, -40, -40);
    CHECK_ST(twin_add(&b, &pnt), MBP_OK);
    uint32_t used = 1u, added = 0u;
    mbp_status st = MBP_OK;
    for (int32_t x = -56; added + 2u < MBP_MAX_BODIES; x += side - 1) {
        /* [x + 0.5, x + side - 0.5]: side cells per axis; each touches the next. */
        b = box2(x, 0, x + side, side);
        for (int k = 0; k < MBP_DIM; k++) {
            b.min[k] += half;
            b.max[k] -= half;
        }
        st = twin_add(&b, &last);
        if (st != MBP_OK) {
            break;
        }
        added++;
        used += per;
    }
    CHECK(per <= MBP_GRID_MAX_CELLS_PER_BODY); /* else these bodies would be large */
    CHECK(MBP_GRID_MAX_ENTRIES / per + 2u < MBP_MAX_BODIES); /* else the pool cannot fill */
    CHECK_ST(st, MBP_E_NOROOM);
    CHECK_EQ(used, MBP_GRID_MAX_ENTRIES - CELLS(test_w)->free_count);
    CHECK(used <= MBP_GRID_MAX_ENTRIES && used + per > MBP_GRID_MAX_ENTRIES);
    CHECK(twin_update());
    /* Points take the last free entries; then no body can grow by even one cell. */
    uint16_t q = 0xFFFFu;
    while (CELLS(test_w)->free_count != 0u && added + 2u < MBP_MAX_BODIES) {
        int32_t x = 3 * (int32_t)added;
        b = box2(x, -30, x, -30); /* apart: no pairs */
        CHECK_ST(twin_add(&b, &q), MBP_OK);
        added++;
    }
    CHECK_EQ(CELLS(test_w)->free_count, 0);
    CHECK_ST(twin_add(&b, NULL), MBP_E_NOROOM);
    mbp_aabb big = box2(-40, -40, -40 + side, -40 + side);
    for (int k = 0; k < MBP_DIM; k++) {
        big.min[k] += half;
        big.max[k] -= half;
    }
    CHECK_ST(twin_move(pnt, &big), MBP_E_NOROOM);
    b = box2(-40, -40, -39, -40); /* two cells */
    CHECK_ST(twin_move(pnt, &b), MBP_E_NOROOM);
    b = box2(-40, -40, -40, -40);
    b.max[0] += p.cell_size / 2; /* still one cell: no entry needed */
    CHECK_ST(twin_move(pnt, &b), MBP_OK);
    CHECK(twin_update());
    /* Removing one body frees its cells: the point grows, and the world is still exact. */
    twin_remove(last != 0xFFFFu ? last : 1u);
    if (q != 0xFFFFu) {
        twin_remove(q);
    }
    CHECK(twin_update());
    CHECK_ST(twin_move(pnt, &big), MBP_OK);
    CHECK(twin_update());
    b = box2(-100, -100, 1000, 1000);
    CHECK(twin_query(&b));
    b = box2(2, 1, 3, 1);
    CHECK(twin_query(&b));
}
#endif
