/* SPDX-License-Identifier: MIT */
/* test_shape_diff.c: worlds of every shape, some bodies fast, against an O(n^2) oracle, on every
 * backend, frame by frame: the same sorted pairs, begun and ended events.
 *
 * The oracle keeps its own copy of each body's shape and computes a pair as the world promises
 * to: filters both ways, boxes overlapping (each body's box is mbp_shape_aabb of its shape, or a
 * fast body's bound: the union of its box at the last update and its boxes since, kept while it
 * does not move), then mbp_shape_overlap() (checked against the independent reference by
 * test_shape_ref.c), with a fast body taking part as its bound, a box. Bodies drift, teleport,
 * change kind, turn fast or slow, change filters, and are removed and added. */
#include "test_shape_gen.h"
#include "diff.h"

/* Half the capacity on small configurations: the tree keeps candidate pairs beside the true
 * ones, and the M0's pair set holds 96. */
#define SD_BODIES (MBP_MAX_BODIES < 80u ? MBP_MAX_BODIES / 2u : 40u)
#define SD_PAIRS (MBP_MAX_PAIRS)

typedef struct {
    bool live, fast, moved;
    mbp_shape s;
    mbp_aabb bound; /* fast: the bound of the step */
    uint16_t cat, mask;
    mbp_body h;
} sd_body;

static sd_body g_b[MBP_MAX_BODIES];
static uint32_t g_prev[SD_PAIRS], g_cur[SD_PAIRS], g_tmp[SD_PAIRS];
static uint32_t g_nprev, g_ncur, g_shapes;

static bool uses_pool(const sd_body *b)
{
    return b->s.kind >= MBP_SHAPE_OBB || (b->fast && b->s.kind == MBP_SHAPE_BOX);
}

static bool sd_pair(const sd_body *a, const sd_body *b)
{
    if ((a->cat & b->mask) == 0u || (b->cat & a->mask) == 0u) {
        return false;
    }
    mbp_shape va = a->s, vb = b->s;
    if (a->fast) {
        va.kind = MBP_SHAPE_BOX;
        va.u.box = a->bound;
    }
    if (b->fast) {
        vb.kind = MBP_SHAPE_BOX;
        vb.u.box = b->bound;
    }
    mbp_aabb ba, bb;
    mbp_shape_aabb(&va, &ba);
    mbp_shape_aabb(&vb, &bb);
    for (int k = 0; k < MBP_DIM; k++) {
        if (ba.max[k] < bb.min[k] || bb.max[k] < ba.min[k]) {
            return false;
        }
    }
    return mbp_shape_overlap(&va, &vb);
}

static uint32_t minus(const uint32_t *x, uint32_t nx, const uint32_t *y, uint32_t ny,
                      uint32_t *out)
{
    uint32_t i = 0, j = 0, m = 0;
    while (i < nx) {
        if (j < ny && y[j] < x[i]) {
            j++;
        } else if (j < ny && y[j] == x[i]) {
            i++;
            j++;
        } else {
            out[m++] = x[i++];
        }
    }
    return m;
}

static int random_kind(uint32_t *rng)
{
    for (;;) {
        int k = 1 + (int)test_below(rng, 6u);
        if (gen_kind_on(k) && (MBP_WITH_SPHERES || k != MBP_SHAPE_SPHERE)) {
            return k;
        }
    }
}

/* A new volume for body b (anywhere, or near where it is), respecting the pool. */
static void new_shape(uint32_t *rng, sd_body *b, bool anywhere)
{
    int32_t c[3];
    mbp_aabb box;
    bool near = !anywhere && b->live; /* b->s holds a volume only while b lives */
    if (near) {
        mbp_shape_aabb(&b->s, &box);
    }
    for (int k = 0; k < 3; k++) {
        int32_t here = near && k < MBP_DIM ? (int32_t)(ref_d(box.min[k]) * 64) : 0;
        c[k] = !near ? gen_int(rng, -640, 640) : here + gen_int(rng, -48, 48);
        c[k] = c[k] < -640 ? -640 : (c[k] > 640 ? 640 : c[k]);
    }
    int kind = anywhere ? random_kind(rng) : b->s.kind;
    bool had = b->live && uses_pool(b);
    sd_body t = *b;
    t.s.kind = (uint8_t)kind;
    if (!had && uses_pool(&t) && g_shapes >= MBP_MAX_SHAPES) {
        kind = MBP_SHAPE_SPHERE; /* no room: stay clear of the pool */
        if (!MBP_WITH_SPHERES || b->fast) {
            kind = b->fast ? MBP_SHAPE_SPHERE : MBP_SHAPE_BOX;
        }
    }
    gen_shape(rng, kind, c, &b->s);
}

static void pool_count(void)
{
    g_shapes = 0;
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        g_shapes += g_b[i].live && uses_pool(&g_b[i]) ? 1u : 0u;
    }
}

static void sd_step(uint32_t *rng)
{
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        sd_body *b = &g_b[i];
        b->moved = false;
        if (!b->live) {
            continue;
        }
        uint32_t r = test_below(rng, 12u);
        if (r < 4u) {
            mbp_aabb before; /* a fast body's first move of a step: the bound starts here */
            mbp_shape_aabb(&b->s, &before);
            pool_count();
            new_shape(rng, b, r == 0u);
            if (MBP_WITH_FAST && b->fast && !MBP_WITH_SPHERES && b->s.kind == MBP_SHAPE_SPHERE) {
                b->s.kind = MBP_SHAPE_BOX;
            }
            CHECK_ST(mbp_move_shape(&test_w, b->h, &b->s), MBP_OK);
            b->moved = true;
            if (b->fast) {
                mbp_aabb now;
                mbp_shape_aabb(&b->s, &now);
                mbp_aabb_union(&before, &now, &b->bound);
            }
#if MBP_WITH_FAST
        } else if (r == 4u) {
            pool_count();
            bool on = !b->fast;
            if (on && b->s.kind == MBP_SHAPE_BOX && g_shapes >= MBP_MAX_SHAPES) {
                CHECK_ST(mbp_set_fast(&test_w, b->h, true), MBP_E_FULL);
            } else {
                CHECK_ST(mbp_set_fast(&test_w, b->h, on), MBP_OK);
                b->fast = on;
                if (on) {
                    mbp_shape_aabb(&b->s, &b->bound);
                }
            }
#endif
        } else if (r == 5u) {
            b->mask = (uint16_t)(test_rand(rng) | 1u);
            b->cat = (uint16_t)(1u << test_below(rng, 3u));
            CHECK_ST(mbp_set_filter(&test_w, b->h, b->cat, b->mask), MBP_OK);
        }
    }
    /* churn */
    if (test_below(rng, 3u) == 0u) {
        uint32_t i = test_below(rng, MBP_MAX_BODIES);
        if (g_b[i].live) {
            CHECK_ST(mbp_remove(&test_w, g_b[i].h), MBP_OK);
            g_b[i].live = false;
        }
    }
    uint32_t live = 0;
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        live += g_b[i].live ? 1u : 0u;
    }
    while (live < SD_BODIES) {
        sd_body b;
        b.live = false;
        b.fast = false;
        b.moved = false;
        b.cat = MBP_DEFAULT_CATEGORY;
        b.mask = MBP_DEFAULT_MASK;
        b.s.kind = MBP_SHAPE_BOX;
        pool_count();
        new_shape(rng, &b, true);
        mbp_status st = mbp_add_shape(&test_w, &b.s, 0u, &b.h);
        if (st == MBP_E_FULL) {
            break; /* every slot waits for the update */
        }
        CHECK_ST(st, MBP_OK);
        if (st != MBP_OK) {
            break;
        }
        uint16_t i = mbp_index(b.h);
        CHECK(!g_b[i].live);
        b.live = true;
        g_b[i] = b;
        live++;
    }
}

/* After an update: the oracle's pairs against the world's, and the events. */
static bool sd_compare(uint32_t frame)
{
    uint32_t n = 0;
    bool ok = true;
    for (uint32_t a = 0; a < MBP_MAX_BODIES; a++) {
        for (uint32_t b = a + 1u; g_b[a].live && b < MBP_MAX_BODIES; b++) {
            if (g_b[b].live && sd_pair(&g_b[a], &g_b[b])) {
                if (n < SD_PAIRS) {
                    g_cur[n] = a << 16 | b;
                }
                n++;
            }
        }
    }
    CHECK(n <= SD_PAIRS);
    g_ncur = n <= SD_PAIRS ? n : SD_PAIRS;
    mbp_sort_pairs(&test_w);
    uint32_t it = 0, k = 0;
    mbp_pair p;
    while (mbp_next_pair(&test_w, &it, &p)) {
        ok = ok && k < g_ncur && g_cur[k] == test_pair_key(p);
        k++;
    }
    ok = ok && k == g_ncur;
    uint32_t nb, ne;
    const mbp_pair *bg = test_begun(&test_w, &nb);
    const mbp_pair *en = test_ended(&test_w, &ne);
    uint32_t eb = minus(g_cur, g_ncur, g_prev, g_nprev, g_tmp);
    ok = ok && nb == eb;
    for (uint32_t i = 0; ok && bg != NULL && i < nb; i++) {
        ok = test_pair_key(bg[i]) == g_tmp[i];
    }
    uint32_t ee = minus(g_prev, g_nprev, g_cur, g_ncur, g_tmp);
    ok = ok && ne == ee;
    for (uint32_t i = 0; ok && en != NULL && i < ne; i++) {
        ok = test_pair_key(en[i]) == g_tmp[i];
    }
    if (!ok) {
        test_puts("  shape world mismatch at frame ");
        test_putu(frame);
        test_puts(": pairs ");
        test_putu(k);
        test_puts(" vs ");
        test_putu(g_ncur);
        test_puts("\n");
    }
    for (uint32_t i = 0; i < g_ncur; i++) {
        g_prev[i] = g_cur[i];
    }
    g_nprev = g_ncur;
    return ok;
}

static void sd_run(mbp_backend backend, uint32_t seed, bool aabb_only)
{
    mbp_params prm;
    mbp_params_default(&prm);
    prm.backend = backend;
    prm.cell_size = mbp_from_int(8); /* grid entries: the M0 has 4 per body */
    prm.grid_origin[0] = prm.grid_origin[1] = mbp_from_int(-12);
    if (MBP_DIM == 3) {
        prm.grid_origin[2] = mbp_from_int(-12);
    }
    prm.aabb_only = aabb_only ? 1u : 0u;
    CHECK_ST(mbp_init(&test_w, &prm), MBP_OK);
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        g_b[i].live = false;
    }
    g_nprev = 0;
    uint32_t rng = seed * 2654435761u + 17u;
    uint32_t bad = 0;
    for (uint32_t f = 0; f < TEST_FRAMES / 2u && bad < 2u; f++) {
        sd_step(&rng);
        mbp_status st = mbp_update(&test_w);
        CHECK_ST(st, MBP_OK);
        if (aabb_only) {
            /* the oracle's pairs are the box pairs: compare counts only through the set */
            uint32_t n = 0;
            for (uint32_t a = 0; a < MBP_MAX_BODIES; a++) {
                for (uint32_t b = a + 1u; g_b[a].live && b < MBP_MAX_BODIES; b++) {
                    if (!g_b[b].live || (g_b[a].cat & g_b[b].mask) == 0u ||
                        (g_b[b].cat & g_b[a].mask) == 0u) {
                        continue;
                    }
                    mbp_aabb ba, bb;
                    if (g_b[a].fast) {
                        ba = g_b[a].bound;
                    } else {
                        mbp_shape_aabb(&g_b[a].s, &ba);
                    }
                    if (g_b[b].fast) {
                        bb = g_b[b].bound;
                    } else {
                        mbp_shape_aabb(&g_b[b].s, &bb);
                    }
                    n += mbp_aabb_overlap(&ba, &bb) ? 1u : 0u;
                }
            }
            CHECK_EQ(mbp_pair_count(&test_w), n);
            bad += mbp_pair_count(&test_w) != n ? 1u : 0u;
        } else if (!sd_compare(f)) {
            bad++;
        }
    }
    CHECK_EQ(bad, 0);
}

TEST(shape_worlds_give_the_oracle_pairs_and_events_on_every_backend)
{
    for (uint32_t bi = 0; bi < diff_backend_count && !mbp_test_failed(); bi++) {
        for (uint32_t s = 0; s < TEST_SEEDS && !mbp_test_failed(); s++) {
            sd_run(diff_backends[bi], 100u + s, false);
        }
    }
}

TEST(shape_worlds_with_aabb_only_report_every_box_pair)
{
    for (uint32_t bi = 0; bi < diff_backend_count && !mbp_test_failed(); bi++) {
        sd_run(diff_backends[bi], 200u, true);
    }
}
