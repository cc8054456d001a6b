/* SPDX-License-Identifier: MIT */
/* cells_twin.c: see cells_twin.h. */
#include "cells_twin.h"
#include "mbp_internal.h" /* the pair set, for the candidate check */

static mbp_body g_h[MBP_MAX_BODIES];  /* handles in test_w, by index */
static mbp_body g_h2[MBP_MAX_BODIES]; /* the same bodies in test_w2 */
static bool g_live[MBP_MAX_BODIES];
static bool g_cells;    /* test_w runs a cell backend */
static uint8_t g_pin;   /* the frame mode twin_init() pins (0: chosen by cost) */

void cells_pin(uint8_t pin)
{
    g_pin = pin;
}

#ifdef CELLS
/* True when bodies i and j of test_w are a candidate pair by the engine's rule (mbp_cells.c),
 * written again here from the committed ranges: the ranges overlap at the coarser level. */
static bool rule(uint16_t i, uint16_t j)
{
    const mbp_grid_state *s = CELLS(test_w);
    uint32_t li = s->level[i], lj = s->level[j];
    for (int k = 0; k < MBP_DIM; k++) {
        uint32_t ilo = s->lo[i][k], ihi = s->hi[i][k], jlo = s->lo[j][k], jhi = s->hi[j][k];
        if (li < lj) {
            ilo >>= lj - li;
            ihi >>= lj - li;
        } else {
            jlo >>= li - lj;
            jhi >>= li - lj;
        }
        if (ilo > jhi || jlo > ihi) {
            return false;
        }
    }
    return true;
}
#endif

bool cells_check_candidates(void)
{
#ifdef CELLS
    const mbp_grid_state *s = CELLS(test_w);
    if (!g_cells || !s->incr) {
        return true;
    }
    /* After an incremental update the pair set holds exactly the candidate pairs. */
    uint32_t expected = 0u;
    bool ok = s->pend_count == 0u && s->spare == (int32_t)s->free_count;
    for (uint16_t i = 0; i < MBP_MAX_BODIES && ok; i++) {
        if (!g_live[i]) {
            continue;
        }
        ok = s->level[i] != 0xFFu;
        for (uint16_t j = (uint16_t)(i + 1u); j < MBP_MAX_BODIES && ok; j++) {
            if (g_live[j] && rule(i, j)) {
                expected++;
                ok = mbp__pairs_find(&test_w.pairs, (uint32_t)i << 16 | j) >= 0;
            }
        }
    }
    ok = ok && expected == test_w.pairs.count;
    CHECK(ok);
    return ok;
#else
    return true;
#endif
}

bool cells_incremental(void)
{
#ifdef CELLS
    return g_cells && CELLS(test_w)->incr != 0u;
#else
    return false;
#endif
}

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
    g_cells = p->backend == MBP_GRID || p->backend == MBP_HASH || p->backend == MBP_HGRID;
#ifdef CELLS
    if (g_cells) {
        CELLS(test_w)->pin = g_pin;
    }
#endif
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
    for (uint32_t k = 0; ok && a != NULL && k < na; k++) {
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
    const mbp_pair *e = test_begun(&test_w, &n), *e2 = test_begun(&test_w2, &n2);
    ok = ok && same_events(e, n, e2, n2);
    e = test_ended(&test_w, &n);
    e2 = test_ended(&test_w2, &n2);
    ok = ok && same_events(e, n, e2, n2);
    CHECK(ok);
    return cells_check_candidates() && ok;
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
        CHECK(CELLS(test_w)->spare < MBP_GRID_MAX_CELLS_PER_BODY);
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
    CHECK(twin_update());
    CHECK_EQ(CELLS(test_w)->free_count, MBP_GRID_MAX_ENTRIES - n * (1u + (1u << MBP_DIM)));
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
    CHECK_EQ(used, MBP_GRID_MAX_ENTRIES - CELLS(test_w)->spare); /* promised to the adds */
    CHECK(used <= MBP_GRID_MAX_ENTRIES && used + per > MBP_GRID_MAX_ENTRIES);
    CHECK(twin_update());
    /* Points take the last free entries; then no body can grow by even one cell. */
    uint16_t q = 0xFFFFu;
    while (CELLS(test_w)->spare != 0 && added + 2u < MBP_MAX_BODIES) {
        int32_t x = 3 * (int32_t)added;
        b = box2(x, -30, x, -30); /* apart: no pairs */
        CHECK_ST(twin_add(&b, &q), MBP_OK);
        added++;
    }
    CHECK_EQ(CELLS(test_w)->spare, 0);
    CHECK_ST(twin_add(&b, NULL), MBP_E_NOROOM);
    mbp_aabb big = box2(-40, -40, -40 + side, -40 + side);
    for (int k = 0; k < MBP_DIM; k++) {
        big.min[k] += half;
        big.max[k] -= half;
    }
    CHECK_ST(twin_move(pnt, &big), MBP_E_NOROOM);
    if (last != 0xFFFFu) {
        /* The same refusal in a batch: the move before it is made, the refused one and the ones
         * after it are not, and done counts the moves made. The third would move `last` back,
         * so a batch that went on past the refusal shows. */
        mbp_aabb was, now, to[3];
        mbp_body hs[3] = {g_h[last], g_h[pnt], g_h[last]};
        CHECK_ST(mbp_get_box(&test_w, g_h[last], &was), MBP_OK);
        to[0] = was;
        to[0].min[0] += mbp_from_ratio(1, 4); /* within the same cells: needs no entry */
        to[0].max[0] += mbp_from_ratio(1, 4);
        to[1] = big;
        to[2] = was;
        uint32_t done = 99u;
        CHECK_ST(mbp_move_boxes(&test_w, 3u, hs, to, &done), MBP_E_NOROOM);
        CHECK_EQ(done, 1u);
        CHECK_ST(mbp_get_box(&test_w, g_h[last], &now), MBP_OK);
        CHECK(now.min[0] == to[0].min[0] && now.max[0] == to[0].max[0]);
        CHECK_ST(mbp_get_box(&test_w, g_h[pnt], &now), MBP_OK);
        for (int k = 0; k < MBP_DIM; k++) {
            CHECK(now.min[k] == mbp_from_int(-40) && now.max[k] == mbp_from_int(-40));
        }
        CHECK_ST(mbp_move_box(&test_w2, g_h2[last], &to[0]), MBP_OK);
        /* And by index: `last` goes back where it was, pnt is refused, and `last` stays. */
        uint16_t xs[3] = {(uint16_t)(g_h[last].slot1 - 1u), (uint16_t)(g_h[pnt].slot1 - 1u),
                          (uint16_t)(g_h[last].slot1 - 1u)};
        mbp_aabb back[3] = {was, big, to[0]};
        done = 99u;
        CHECK_ST(mbp_move_boxes_at(&test_w, 3u, xs, back, &done), MBP_E_NOROOM);
        CHECK_EQ(done, 1u);
        CHECK_ST(mbp_get_box(&test_w, g_h[last], &now), MBP_OK);
        CHECK(now.min[0] == was.min[0] && now.max[0] == was.max[0]);
        CHECK_ST(mbp_move_box_at(&test_w, xs[1], &big), MBP_E_NOROOM);
        CHECK_ST(mbp_move_box(&test_w2, g_h2[last], &was), MBP_OK);
        CHECK(twin_update());
    }
#if MBP_WITH_SPHERES
    {
        /* The same refusal through mbp_move_sphere(): the body keeps its box and stays a box. */
        mbp_sphere ball;
        for (int k = 0; k < MBP_DIM; k++) {
            ball.c[k] = (big.min[k] + big.max[k]) / 2;
        }
        ball.r = (big.max[0] - big.min[0]) / 2;
        mbp_aabb kept;
        CHECK_ST(mbp_move_sphere(&test_w, g_h[pnt], &ball), MBP_E_NOROOM);
        CHECK_ST(mbp_get_box(&test_w, g_h[pnt], &kept), MBP_OK);
        for (int k = 0; k < MBP_DIM; k++) {
            CHECK(kept.min[k] == mbp_from_int(-40) && kept.max[k] == mbp_from_int(-40));
        }
    }
#endif
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

/* ---- the incremental engine ---- */

#ifdef CELLS
/* A box in quarter units, from x0 to x1 on the first axis and y0..y1 on every other axis. */
static mbp_aabb boxq(int32_t x0, int32_t y0, int32_t x1, int32_t y1)
{
    mbp_aabb b;
    for (int k = 0; k < MBP_DIM; k++) {
        b.min[k] = mbp_from_ratio(k == 0 ? x0 : y0, 4);
        b.max[k] = mbp_from_ratio(k == 0 ? x1 : y1, 4);
    }
    return b;
}

static mbp_aabb shifted(uint16_t i, int32_t dx_quarters)
{
    mbp_aabb b;
    CHECK_ST(mbp_get_box(&test_w, g_h[i], &b), MBP_OK);
    b.min[0] += mbp_from_ratio(dx_quarters, 4);
    b.max[0] += mbp_from_ratio(dx_quarters, 4);
    return b;
}

void cells_incremental_check(mbp_backend backend)
{
    mbp_params p;
    cells_params(&p, backend, 4);
    cells_pin(1u);
    twin_init(&p);
    cells_pin(0u);
    /* Pairs of overlapping boxes, 1.5 units wide, one pair per 4-unit cell, cells 8 apart
     * (a side of m such cells on x and y: inside the default grid). */
    uint32_t m = p.grid_cells[0] / 2u, n = (TEST_BODIES / 2u) & ~1u;
    n = n < 2u * m * m ? n : 2u * m * m;
    for (uint32_t k = 0; k < n; k++) {
        int32_t x = 32 * (int32_t)(k / 2u % m) + 4 + 2 * (int32_t)(k % 2u);
        int32_t y = 32 * (int32_t)(k / 2u / m) + 4;
        mbp_aabb b = boxq(x, y, x + 6, y + 6);
        CHECK_ST(twin_add(&b, NULL), MBP_OK);
    }
    CHECK(twin_update());
    CHECK(twin_update()); /* the first update counts; the second may switch */
    CHECK(cells_incremental());
    const mbp_grid_state *s = CELLS(test_w);
    CHECK_EQ(mbp_pair_count(&test_w), n / 2u);
    CHECK_EQ(test_w.pairs.count, n / 2u); /* candidates: each pair shares its cell alone */
    static uint16_t first[MBP_MAX_BODIES];
    for (uint32_t f = 0; f < 4u; f++) {
        uint16_t free_head = s->free_head;
        for (uint16_t i = 0; i < n; i++) {
            first[i] = s->first[i];
            mbp_aabb b = shifted(i, (f + i) % 2u == 0u ? 1 : -1); /* within the cell */
            CHECK_ST(twin_move(i, &b), MBP_OK);
        }
        CHECK_EQ(s->pend_count, 0);
        CHECK(twin_update());
        CHECK_EQ(mbp_get_stats(&test_w)->tests, 0); /* the backend looked at nothing */
        CHECK_EQ(s->free_head, free_head);
        for (uint16_t i = 0; i < n; i++) {
            CHECK_EQ(s->first[i], first[i]);
        }
    }
    /* Body 0 reaches into the next cell (empty): one pending change, nobody to test. */
    mbp_aabb b = shifted(0u, 6);
    CHECK_ST(twin_move(0u, &b), MBP_OK);
    CHECK_EQ(s->pend_count, 1);
    CHECK(twin_update());
    CHECK(mbp_get_stats(&test_w)->tests <= 1u);
    CHECK_EQ(mbp_pair_count(&test_w), n / 2u);
    /* Body 1 follows into the next cell and leaves the first: its pair with 0 stays a
     * candidate (they share the second cell), and still overlaps. */
    b = shifted(1u, 10);
    CHECK_ST(twin_move(1u, &b), MBP_OK);
    CHECK(twin_update());
    CHECK_EQ(test_w.pairs.count, n / 2u);
}

void cells_border_check(mbp_backend backend)
{
    mbp_params p;
    cells_params(&p, backend, 4);
    for (uint8_t pin = 0; pin < 3u; pin++) {
        cells_pin(pin);
        twin_init(&p);
        /* Around the border x = 4 (16 quarters): a box in cell 0, one in cell 1, a point on
         * the border, a box ending on it, and one below the origin. */
        const int32_t c[][4] = {{8, 8, 14, 14}, {18, 8, 24, 14}, {16, 8, 16, 8},
                                {10, 9, 16, 13}, {-4, 8, 0, 12}};
        for (uint32_t k = 0; k < sizeof c / sizeof c[0] && k + 1u < MBP_MAX_BODIES; k++) {
            mbp_aabb b = boxq(c[k][0], c[k][1], c[k][2], c[k][3]);
            CHECK_ST(twin_add(&b, NULL), MBP_OK);
        }
        uint16_t o;
        mbp_aabb in = boxq(12, 8, 15, 12), on = boxq(13, 8, 16, 12); /* on: touches x = 4 */
        CHECK_ST(twin_add(&in, &o), MBP_OK);
        CHECK(twin_update());
        for (uint32_t f = 0; f < 12u && !mbp_test_failed(); f++) {
            CHECK_ST(twin_move(o, f % 2u == 0u ? &on : &in), MBP_OK);
            CHECK(twin_update());
        }
        /* Across and back within one frame: pending, but nothing to do. */
        const mbp_grid_state *s = CELLS(test_w);
        CHECK_ST(twin_move(o, &on), MBP_OK);
        CHECK_EQ(s->pend_count, 1);
        CHECK_ST(twin_move(o, &in), MBP_OK);
        CHECK_EQ(s->pend_count, 1);
        CHECK_EQ(s->spare, s->free_count); /* no entry promised */
        CHECK(twin_update());
        if (cells_incremental()) {
            CHECK_EQ(mbp_get_stats(&test_w)->tests, 0);
        }
        /* Across, further, and back to the border cell pair within one frame. */
        mbp_aabb far = boxq(40, 8, 44, 12);
        CHECK_ST(twin_move(o, &on), MBP_OK);
        CHECK_ST(twin_move(o, &far), MBP_OK);
        CHECK_ST(twin_move(o, &on), MBP_OK);
        CHECK(twin_update());
    }
    cells_pin(0u);
}

void cells_one_cell_check(mbp_backend backend)
{
    mbp_params p;
    cells_params(&p, backend, 1000);
    /* n bodies whose candidates (n (n - 1) / 2) fit 3/4 of the pair set, moving inside one
     * cell: incremental frames with every pair a candidate. */
    uint32_t n = 2u;
    while (n < TEST_BODIES && (n + 1u) * n / 2u <= (uint32_t)MBP_MAX_PAIRS * 3u / 4u) {
        n++;
    }
    cells_pin(1u);
    twin_init(&p);
    cells_pin(0u);
    uint32_t r = 17u;
    for (uint32_t k = 0; k < n; k++) {
        mbp_aabb b = rand_box(&r, 1, 60, 3);
        CHECK_ST(twin_add(&b, NULL), MBP_OK);
    }
    for (uint32_t f = 0; f < 20u && !mbp_test_failed(); f++) {
        for (uint16_t i = 0; i < n; i++) {
            if (test_below(&r, 2u) == 0u) {
                mbp_aabb b = rand_box(&r, 1, 60, 3);
                CHECK_ST(twin_move(i, &b), MBP_OK);
            }
        }
        CHECK(twin_update());
        CHECK(f == 0u || cells_incremental());
        CHECK_EQ(test_w.pairs.count, f == 0u ? test_w.pairs.count : n * (n - 1u) / 2u);
    }
    /* More bodies than the pair set holds candidates for: full frames, exact. */
    int32_t side = MBP_DIM == 2 ? 6 * 16 : 48;
    CHECK_EQ(twin_scene(&p, 6u, TEST_BODIES, 20u, 1, side, 1), 0);
}

void cells_pending_room_check(mbp_backend backend)
{
    mbp_params p;
    cells_params(&p, backend, 1);
    if (backend == MBP_HGRID) {
        p.cell_size = mbp_from_ratio(1, 1 << (MBP_HGRID_LEVELS - 1)); /* coarsest: 1 unit */
    }
    const int32_t side = MBP_DIM == 2 ? 4 : 2;
    const uint32_t per = MBP_DIM == 2 ? 16u : 8u;
    for (int k = 0; k < MBP_DIM; k++) {
        uint32_t cells = MBP_GRID_MAX_CELLS / (per / (uint32_t)side);
        p.grid_cells[k] = (uint16_t)(k == 0 ? (cells < 65535u ? cells : 65535u) : (uint32_t)side);
        p.grid_origin[k] = mbp_from_int(k == 0 ? -64 : 0);
    }
    cells_pin(1u);
    twin_init(&p);
    cells_pin(0u);
    const mbp_scalar half = mbp_from_ratio(1, 2), c0 = p.cell_size;
    /* A: a point in a level-0 cell, at x = -40. */
    uint16_t a, big = 0xFFFFu;
    mbp_aabb pa = box2(-40, 1, -40, 1);
    CHECK_ST(twin_add(&pa, &a), MBP_OK);
    /* Bodies of side^DIM cells until the pool is full, then points for what is left. */
    mbp_status st = MBP_OK;
    uint32_t added = 1u;
    for (int32_t x = -56; added + 2u < MBP_MAX_BODIES && st == MBP_OK; x += side) {
        mbp_aabb b = box2(x, 0, x + side, side);
        for (int k = 0; k < MBP_DIM; k++) {
            b.min[k] += half;
            b.max[k] -= half;
        }
        uint16_t i;
        st = twin_add(&b, &i);
        if (st == MBP_OK) {
            big = i;
            added++;
        }
    }
    CHECK_ST(st, MBP_E_NOROOM);
    while (CELLS(test_w)->spare != 0 && added + 2u < MBP_MAX_BODIES) {
        mbp_aabb b = box2(3 * (int32_t)added, -30, 3 * (int32_t)added, -30);
        CHECK_ST(twin_add(&b, NULL), MBP_OK);
        added++;
    }
    CHECK(twin_update());
    if (CELLS(test_w)->spare != 0 || big == 0xFFFFu) {
        CHECK(!"the pool did not fill: the config has too many bodies for its entries");
        return;
    }
    /* A moves to another cell (no new entry), then would need 2 cells: no room. */
    mbp_aabb a1 = box2(-38, 1, -38, 1), a2 = a1;
    a2.min[0] -= c0 / 4;
    a2.max[0] += c0 / 4; /* across the border at x = -38: 2 cells */
    CHECK_ST(twin_move(a, &a1), MBP_OK);
    CHECK_ST(twin_move(a, &a2), MBP_E_NOROOM);
    /* The big body shrinks to a point: its entries are promised back; now A fits, although A
     * comes first in the pending list and is applied after the big body frees them. */
    mbp_aabb pb = box2(-20, 1, -20, 1);
    CHECK_ST(twin_move(big, &pb), MBP_OK);
    CHECK_EQ(CELLS(test_w)->spare, (int32_t)per - 1);
    CHECK_ST(twin_move(a, &a2), MBP_OK);
    CHECK_EQ(CELLS(test_w)->spare, (int32_t)per - 2);
    CHECK_EQ(CELLS(test_w)->pend[0], a);
    CHECK(twin_update());
    CHECK_EQ(CELLS(test_w)->free_count, per - 2u);
    /* Removing a pending body gives its promise back. */
    mbp_aabb b3 = box2(-20, 1, -18, 1);
    b3.max[0] = b3.min[0] + c0; /* 2 cells */
    CHECK_ST(twin_move(big, &b3), MBP_OK);
    CHECK_EQ(CELLS(test_w)->spare, (int32_t)per - 3);
    twin_remove(big);
    CHECK_EQ(CELLS(test_w)->spare, (int32_t)per - 1);
    CHECK(twin_update());
    CHECK_EQ(CELLS(test_w)->free_count, per - 1u);
}

void cells_overflow_check(mbp_backend backend)
{
    /* n points: n (n - 1) / 2 candidates overflow the pair set when they share one cell. */
    uint32_t n = test_pile_that_fits() + 1u; /* the smallest pile that overflows */
    if (n > MBP_MAX_BODIES) {
        return;
    }
    mbp_params p;
    cells_params(&p, backend, 4);
    cells_pin(1u);
    twin_init(&p);
    cells_pin(0u);
    /* Apart: one point per cell, a few cells apart. */
    for (uint32_t k = 0; k < n; k++) {
        int32_t x = 12 * (int32_t)(k % 12u) + 1, y = 12 * (int32_t)(k / 12u) + 1;
        mbp_aabb b = box2(x, y, x, y);
        CHECK_ST(twin_add(&b, NULL), MBP_OK);
    }
    CHECK(twin_update());
    CHECK(twin_update());
    CHECK(cells_incremental());
    /* All into cell 0 in one frame (distinct points, but 2 and 3 on 0 and 1): the candidates
     * do not fit; the frame turns into a full one, exact, and no pair is lost. */
    for (uint16_t i = 0; i < n; i++) {
        uint32_t q = i < 4u ? i % 2u : i;
        mbp_aabb b = boxq((int32_t)(q % 15u), (int32_t)(q / 15u), (int32_t)(q % 15u),
                          (int32_t)(q / 15u));
        CHECK_ST(twin_move(i, &b), MBP_OK);
    }
    CHECK(twin_update());
    CHECK(!cells_incremental());
    CHECK_EQ(mbp_get_stats(&test_w)->lost_pairs, 0);
    CHECK_EQ(mbp_pair_count(&test_w), 2);
    /* Full frames after, exact; one more point moves onto 0: two more pairs. */
    mbp_aabb b = boxq(0, 0, 0, 0);
    CHECK_ST(twin_move(4u, &b), MBP_OK);
    CHECK(twin_update());
    CHECK(!cells_incremental());
    CHECK_EQ(mbp_pair_count(&test_w), 4);
    /* Apart again: incremental frames come back (pinned: as soon as they fit). */
    for (uint16_t i = 0; i < n; i++) {
        int32_t x = 12 * (int32_t)(i % 12u) + 1, y = 12 * (int32_t)(i / 12u) + 1;
        mbp_aabb c = box2(x, y, x, y);
        CHECK_ST(twin_move(i, &c), MBP_OK);
    }
    CHECK(twin_update());
    CHECK(twin_update());
    CHECK(cells_incremental());
    CHECK_EQ(mbp_pair_count(&test_w), 0);
}
#endif
