/* SPDX-License-Identifier: MIT */
/* diff.c: the oracle and the scene driver behind diff_run(). See diff.h. */
#include "diff.h"

const mbp_backend diff_backends[] = {
#if MBP_WITH_BRUTE
    MBP_BRUTE,
#endif
#if MBP_WITH_SWEEP
    MBP_SWEEP,
#endif
#if MBP_WITH_SAP
    MBP_SAP,
#endif
#if MBP_WITH_GRID
    MBP_GRID,
#endif
#if MBP_WITH_HASH
    MBP_HASH,
#endif
#if MBP_WITH_HGRID
    MBP_HGRID,
#endif
#if MBP_WITH_TREE
    MBP_TREE,
#endif
#if MBP_WITH_QUADTREE
    MBP_QUADTREE,
#endif
};
const uint32_t diff_backend_count = sizeof diff_backends / sizeof diff_backends[0];


/* ---- the oracle's own copy of the world ---- */

typedef struct {
    bool live;
    bool sphere;
    bool stat; /* added with mbp_add_static_box(): never pairs with another static body */
    mbp_scalar lo[MBP_DIM], hi[MBP_DIM]; /* the box (a sphere's box for spheres) */
    mbp_scalar c[MBP_DIM], r;
    uint16_t cat, mask;
    mbp_body h;
    int32_t vel[MBP_DIM]; /* scene motion, in lattice units per frame */
} obody;

#define OCAP (MBP_MAX_PAIRS)
static obody g_ob[MBP_MAX_BODIES];
static uint32_t g_prev[OCAP], g_cur[OCAP], g_exp_begun[OCAP], g_exp_ended[OCAP];
static uint32_t g_nprev, g_ncur;
uint32_t diff_lost_event_frames;

static bool o_box_overlap(const obody *a, const obody *b)
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (a->hi[k] < b->lo[k] || b->hi[k] < a->lo[k]) {
            return false;
        }
    }
    return true;
}

#if MBP_SCALAR == MBP_FIXED
typedef uint64_t o_d2;
static o_d2 o_sq(int64_t d)
{
    uint64_t u = d < 0 ? (uint64_t)(-d) : (uint64_t)d;
    return u * u;
}
#define O_SUB(a, b) ((int64_t)(a) - (int64_t)(b))
#define O_ADD(a, b) ((int64_t)(a) + (int64_t)(b))
#define O_ZERO 0
#else
typedef float o_d2;
static o_d2 o_sq(float d)
{
    return d * d;
}
#define O_SUB(a, b) ((a) - (b))
#define O_ADD(a, b) ((a) + (b))
#define O_ZERO 0.0f
#endif

/* Sphere s against box b: squared distance from the centre to the box. */
static bool o_sphere_box(const obody *s, const obody *b)
{
    o_d2 d2 = 0;
    for (int k = 0; k < MBP_DIM; k++) {
        if (s->c[k] < b->lo[k]) {
            d2 += o_sq(O_SUB(b->lo[k], s->c[k]));
        } else if (s->c[k] > b->hi[k]) {
            d2 += o_sq(O_SUB(s->c[k], b->hi[k]));
        }
    }
    return d2 <= o_sq(s->r);
}

static bool o_pair(const obody *a, const obody *b)
{
    if ((a->stat && b->stat) || (a->cat & b->mask) == 0u || (b->cat & a->mask) == 0u || !o_box_overlap(a, b)) {
        return false;
    }
    if (a->sphere && b->sphere) {
        o_d2 d2 = 0;
        for (int k = 0; k < MBP_DIM; k++) {
            d2 += o_sq(O_SUB(a->c[k], b->c[k]));
        }
        return d2 <= o_sq(O_ADD(a->r, b->r));
    }
    if (a->sphere) {
        return o_sphere_box(a, b);
    }
    if (b->sphere) {
        return o_sphere_box(b, a);
    }
    return true;
}

/* All overlapping pairs, ascending by construction. Returns false when more than OCAP. */
static bool o_pairs(uint32_t *out, uint32_t *n)
{
    uint32_t m = 0;
    for (uint32_t a = 0; a < MBP_MAX_BODIES; a++) {
        if (!g_ob[a].live) {
            continue;
        }
        for (uint32_t b = a + 1u; b < MBP_MAX_BODIES; b++) {
            if (g_ob[b].live && o_pair(&g_ob[a], &g_ob[b])) {
                if (m == OCAP) {
                    return false;
                }
                out[m++] = a << 16 | b;
            }
        }
    }
    *n = m;
    return true;
}

/* out = x minus y, both ascending. */
static uint32_t o_minus(const uint32_t *x, uint32_t nx, const uint32_t *y, uint32_t ny,
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

/* ---- scene generation ---- */

/* Lattice: one unit is a quarter of a world unit, so coordinates are exact in float and fixed. */
static mbp_scalar q(int32_t quarters)
{
    return mbp_from_ratio(quarters, 4);
}

typedef struct {
    uint32_t rng;
    int32_t extent; /* world is [0, extent] quarters on every axis */
    const diff_opts *o;
} scene;

static void make_volume(scene *s, obody *b)
{
    uint32_t *r = &s->rng;
    int32_t size[MBP_DIM], pos[MBP_DIM];
    bool point = s->o->scene == SCENE_IDENTICAL && test_below(r, 4u) == 0u;
    for (int k = 0; k < MBP_DIM; k++) {
        size[k] = point ? 0 : 1 + (int32_t)test_below(r, 12u);
        pos[k] = (int32_t)test_below(r, (uint32_t)(s->extent - size[k] + 1));
        if (s->o->scene == SCENE_LINE && k > 0) {
            pos[k] = 8;
            size[k] = 4;
        }
        if (s->o->scene == SCENE_JITTER) {
            pos[k] &= ~3; /* whole units: touching is common */
            size[k] = 4 * (1 + (int32_t)test_below(r, 2u));
        }
    }
    if (s->o->scene == SCENE_IDENTICAL && test_below(r, 2u) == 0u) {
        for (int k = 0; k < MBP_DIM; k++) { /* one of a few fixed places */
            pos[k] = 16 * (int32_t)test_below(r, 3u);
            size[k] = point ? 0 : 8;
        }
    }
    b->sphere = MBP_WITH_SPHERES && s->o->spheres && test_below(r, 3u) == 0u;
    if (b->sphere) {
        int32_t rad = size[0] / 2;
        for (int k = 0; k < MBP_DIM; k++) {
            b->c[k] = q(pos[k] + rad);
        }
        b->r = q(rad);
        for (int k = 0; k < MBP_DIM; k++) { /* the box of the sphere, as the library defines it */
            b->lo[k] = mbp_add_sat(b->c[k], -b->r);
            b->hi[k] = mbp_add_sat(b->c[k], b->r);
        }
    } else {
        for (int k = 0; k < MBP_DIM; k++) {
            b->lo[k] = q(pos[k]);
            b->hi[k] = q(pos[k] + size[k]);
        }
    }
}

static void new_velocity(scene *s, obody *b)
{
    for (int k = 0; k < MBP_DIM; k++) {
        b->vel[k] = (int32_t)test_below(&s->rng, 5u) - 2;
        if (s->o->scene == SCENE_JITTER) {
            b->vel[k] *= 4;
        }
        if (s->o->scene == SCENE_LINE && k > 0) {
            b->vel[k] = 0;
        }
    }
}

/* Moves b by its velocity, reflecting off the walls. */
static void drift(scene *s, obody *b)
{
    mbp_scalar lo = q(0), hi = q(s->extent);
    for (int k = 0; k < MBP_DIM; k++) {
        mbp_scalar d = q(b->vel[k]);
        if ((b->vel[k] < 0 && b->lo[k] + d < lo) || (b->vel[k] > 0 && b->hi[k] + d > hi)) {
            b->vel[k] = -b->vel[k];
            d = -d;
        }
        if (s->o->scene == SCENE_JITTER) {
            b->vel[k] = -b->vel[k]; /* step back and forth across touching */
        }
        b->lo[k] += d;
        b->hi[k] += d;
        if (b->sphere) {
            b->c[k] += d;
        }
    }
}

static mbp_status lib_add(obody *b)
{
    mbp_status st;
#if MBP_WITH_SPHERES
    if (b->sphere) {
        mbp_sphere sp;
        for (int k = 0; k < MBP_DIM; k++) {
            sp.c[k] = b->c[k];
        }
        sp.r = b->r;
        st = mbp_add_sphere(&test_w, &sp, 0u, &b->h);
    } else
#endif
    {
        mbp_aabb box;
        for (int k = 0; k < MBP_DIM; k++) {
            box.min[k] = b->lo[k];
            box.max[k] = b->hi[k];
        }
        st = b->stat ? mbp_add_static_box(&test_w, &box, 0u, &b->h)
                     : mbp_add_box(&test_w, &box, 0u, &b->h);
    }
    return st;
}

static mbp_status lib_move(const obody *b)
{
#if MBP_WITH_SPHERES
    if (b->sphere) {
        mbp_sphere sp;
        for (int k = 0; k < MBP_DIM; k++) {
            sp.c[k] = b->c[k];
        }
        sp.r = b->r;
        return mbp_move_sphere(&test_w, b->h, &sp);
    }
#endif
    mbp_aabb box;
    for (int k = 0; k < MBP_DIM; k++) {
        box.min[k] = b->lo[k];
        box.max[k] = b->hi[k];
    }
    return mbp_move_box(&test_w, b->h, &box);
}

/* Adds a new random body where the library puts it; false when the world is full. */
static bool add_one(scene *s)
{
    obody b = {0};
    make_volume(s, &b);
    new_velocity(s, &b);
    b.cat = MBP_DEFAULT_CATEGORY;
    b.mask = MBP_DEFAULT_MASK;
    b.live = true;
    /* Runs with filters also have static bodies: one box in four. */
    b.stat = s->o->filters && !b.sphere && test_below(&s->rng, 4u) == 0u;
    mbp_status st = lib_add(&b);
    if (st == MBP_E_FULL) {
        return false;
    }
    CHECK_ST(st, MBP_OK);
    if (st != MBP_OK) {
        return false;
    }
    uint16_t i = mbp_index(b.h);
    CHECK(i < MBP_MAX_BODIES && !g_ob[i].live);
    if (s->o->filters && test_below(&s->rng, 4u) == 0u) {
        b.cat = (uint16_t)(1u << test_below(&s->rng, 3u));
        b.mask = (uint16_t)(test_rand(&s->rng) | 1u);
        CHECK_ST(mbp_set_filter(&test_w, b.h, b.cat, b.mask), MBP_OK);
    }
    g_ob[i] = b;
    return true;
}

static uint32_t live_count(void)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        n += g_ob[i].live ? 1u : 0u;
    }
    return n;
}

/* Removes body i, by its handle or (odd i) by its index; either way both are stale then. */
static void remove_one(scene *s, uint32_t i)
{
    (void)s;
    uint16_t index = (uint16_t)(g_ob[i].h.slot1 - 1u);
    if ((i & 1u) != 0u) {
        CHECK_ST(mbp_remove_at(&test_w, index), MBP_OK);
    } else {
        CHECK_ST(mbp_remove(&test_w, g_ob[i].h), MBP_OK);
    }
    CHECK_ST(mbp_remove(&test_w, g_ob[i].h), MBP_E_STALE);
    CHECK_ST(mbp_remove_at(&test_w, index), MBP_E_STALE);
    g_ob[i].live = false;
}

/* Box moves of odd frames, applied by mbp_move_boxes() a few at a time (small: the micro:bit's
 * 16 KB hold the test images), or, in every other odd frame (g_by_index), by
 * mbp_move_boxes_at() with the bodies' indices. */
#define BATCH 4u
static mbp_body g_batch_h[BATCH];
static uint16_t g_batch_i[BATCH];
static mbp_aabb g_batch_box[BATCH];
static bool g_by_index;

/* Moves the batch's bodies, and empties it. */
static void flush(uint32_t *nbatch)
{
    uint32_t done = 0u;
    if (g_by_index) {
        CHECK_ST(mbp_move_boxes_at(&test_w, *nbatch, g_batch_i, g_batch_box, &done), MBP_OK);
    } else {
        CHECK_ST(mbp_move_boxes(&test_w, *nbatch, g_batch_h, g_batch_box, &done), MBP_OK);
    }
    CHECK_EQ(done, *nbatch);
    *nbatch = 0u;
}

/* Moves b in the library: now, or into the batch when batch is true and b is a box. */
static void move_one(const obody *b, bool batch, uint32_t *nbatch)
{
    if (!batch || b->sphere) {
        CHECK_ST(lib_move(b), MBP_OK);
        return;
    }
    g_batch_h[*nbatch] = b->h;
    g_batch_i[*nbatch] = (uint16_t)(b->h.slot1 - 1u);
    for (int k = 0; k < MBP_DIM; k++) {
        g_batch_box[*nbatch].min[k] = b->lo[k];
        g_batch_box[*nbatch].max[k] = b->hi[k];
    }
    (*nbatch)++;
    if (*nbatch == BATCH) {
        flush(nbatch);
    }
}

static void step(scene *s, uint32_t frame)
{
    const diff_opts *o = s->o;
    const bool batch = frame % 2u == 1u;
    g_by_index = frame % 4u == 3u;
    uint32_t nbatch = 0u;
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        obody *b = &g_ob[i];
        if (!b->live) {
            continue;
        }
        bool moved = true;
        if (o->scene == SCENE_TELEPORT && test_below(&s->rng, 20u) == 0u) {
            make_volume(s, b); /* anywhere, maybe another shape */
            move_one(b, batch, &nbatch);
            continue;
        }
        if (o->scene == SCENE_IDENTICAL || o->scene == SCENE_LINE) {
            moved = test_below(&s->rng, 3u) == 0u;
        }
        if (o->scene == SCENE_CALM) {
            moved = test_below(&s->rng, 16u) == 0u;
        }
        if (b->stat) {
            moved = test_below(&s->rng, 8u) == 0u; /* level geometry: mostly still */
        }
        if (moved) {
            drift(s, b);
            move_one(b, batch, &nbatch);
        }
        if (o->filters && test_below(&s->rng, 50u) == 0u) {
            b->mask = (uint16_t)(test_rand(&s->rng) | 1u);
            CHECK_ST(mbp_set_filter(&test_w, b->h, b->cat, b->mask), MBP_OK);
        }
    }
    flush(&nbatch);
    bool burst = o->scene == SCENE_BURST && frame % 7u == 3u;
    uint32_t churn = burst ? o->bodies / 3u + 1u : (test_below(&s->rng, 4u) == 0u ? 1u : 0u);
    for (uint32_t c = 0; c < churn; c++) {
        uint32_t i = test_below(&s->rng, MBP_MAX_BODIES);
        if (g_ob[i].live) {
            remove_one(s, i);
        }
    }
    uint32_t n = live_count();
    while (n < o->bodies && add_one(s)) {
        n++;
    }
}

/* A frame whose pairs overflowed the set, within the update if not at its end (MBP_E_PAIRS_FULL,
 * with the lost pairs counted; long runs of dense scenes reach it): the world holds some of the
 * overlapping pairs, and begins the others in a later update that has room. Checks that what it
 * holds is a subset of the oracle's pairs, then takes it for this frame's pairs, so that this
 * frame's events and the next frame's are checked against what the world held. */
static bool take_world_pairs(void)
{
    uint32_t na, j = 0;
    mbp_sort_pairs(&test_w);
    const mbp_pair *arr = mbp_pairs(&test_w, &na);
    bool ok = mbp_get_stats(&test_w)->lost_pairs > 0u; /* then each held pair in g_cur, in order */
    for (uint32_t i = 0; ok && i < na; i++) {
        uint32_t key = test_pair_key(arr[i]);
        while (j < g_ncur && g_cur[j] < key) {
            j++;
        }
        ok = j < g_ncur && g_cur[j] == key;
    }
    CHECK(ok);
    for (uint32_t i = 0; ok && i < na; i++) {
        g_cur[i] = test_pair_key(arr[i]);
    }
    g_ncur = ok ? na : g_ncur;
    return ok;
}

/* Whether the ascending list l[0..n) (NULL: no event lists, nothing to check) is a part of the
 * ascending keys want[0..nw). */
static bool is_part(const mbp_pair *l, uint32_t n, const uint32_t *want, uint32_t nw)
{
    uint32_t j = 0;
    for (uint32_t i = 0; l != NULL && i < n; i++) {
        uint32_t key = test_pair_key(l[i]);
        while (j < nw && want[j] < key) {
            j++;
        }
        if (j == nw || want[j] != key) {
            return false;
        }
        j++;
    }
    return true;
}

/* Compares the world after an update with the oracle; returns true when all agrees. */
static bool compare(uint32_t frame, mbp_status st)
{
    bool ok = true;
    uint32_t nb, ne, ebn, een;
    if (!o_pairs(g_cur, &g_ncur)) {
        CHECK(!"scene denser than the oracle's buffer: make the scene sparser");
        return false;
    }
    if (st == MBP_E_PAIRS_FULL) {
        ok = take_world_pairs();
        st = MBP_OK; /* the rest checks the pairs held, and the events against them */
    }
    /* Events lost (MBP_E_EVENTS_FULL, or within a frame that lost pairs too): the events share
     * the pair set's free entries, so a crowded set holds only some; those it holds are checked
     * as a part of the expected lists, and the lost ones make up the rest. */
    uint32_t lost_events = mbp_get_stats(&test_w)->lost_events;
    if (st == MBP_E_EVENTS_FULL) {
        ok = lost_events != 0u;
        CHECK(lost_events != 0u);
        st = MBP_OK;
    }
    diff_lost_event_frames += lost_events != 0u ? 1u : 0u;
    ebn = o_minus(g_cur, g_ncur, g_prev, g_nprev, g_exp_begun);
    een = o_minus(g_prev, g_nprev, g_cur, g_ncur, g_exp_ended);
    ok = ok && st == MBP_OK;
    CHECK_ST(st, MBP_OK);

    /* Walk in the set's own order: the same number of pairs, each overlapping, and the same
     * sequence as the plain array of mbp_pairs(). */
    uint32_t it = 0, own = 0, na;
    mbp_pair p;
    const mbp_pair *arr = mbp_pairs(&test_w, &na);
    ok = ok && na == g_ncur;
    while (mbp_next_pair(&test_w, &it, &p)) {
        ok = ok && p.a < p.b && own < na && arr[own].a == p.a && arr[own].b == p.b;
        own++;
    }
    ok = ok && own == g_ncur && mbp_pair_count(&test_w) == g_ncur;
    CHECK_EQ(own, g_ncur);

    /* Sorted: exactly the oracle's list, in the array too. */
    mbp_sort_pairs(&test_w);
    arr = mbp_pairs(&test_w, &na);
    for (uint32_t i = 0; ok && i < na; i++) {
        ok = i < g_ncur && test_pair_key(arr[i]) == g_cur[i];
    }
    it = 0;
    uint32_t k = 0;
    while (mbp_next_pair(&test_w, &it, &p)) {
        uint32_t key = test_pair_key(p);
        if (k >= g_ncur || key != g_cur[k]) {
            ok = false;
        }
        k++;
    }
    const mbp_pair *bg = test_begun(&test_w, &nb);
    const mbp_pair *en = test_ended(&test_w, &ne);
    if (lost_events == 0u) {
        ok = ok && nb == ebn && ne == een;
        for (uint32_t i = 0; ok && bg != NULL && i < nb; i++) {
            ok = test_pair_key(bg[i]) == g_exp_begun[i];
        }
        for (uint32_t i = 0; ok && en != NULL && i < ne; i++) {
            ok = test_pair_key(en[i]) == g_exp_ended[i];
        }
    } else {
        ok = ok && nb + ne + lost_events == ebn + een && is_part(bg, nb, g_exp_begun, ebn) &&
             is_part(en, ne, g_exp_ended, een);
    }
    if (!ok) {
        test_puts("  mismatch at frame ");
        test_putu(frame);
        test_puts(": pairs ");
        test_putu(mbp_pair_count(&test_w));
        test_puts(" vs ");
        test_putu(g_ncur);
        test_puts(", begun ");
        test_putu(nb);
        test_puts(" vs ");
        test_putu(ebn);
        test_puts(", ended ");
        test_putu(ne);
        test_puts(" vs ");
        test_putu(een);
        test_puts("\n");
    }
    for (uint32_t i = 0; i < g_ncur; i++) {
        g_prev[i] = g_cur[i];
    }
    g_nprev = g_ncur;
    return ok;
}

uint32_t diff_run(mbp_backend backend, const diff_opts *o)
{
    mbp_params prm;
    mbp_params_default(&prm);
    prm.backend = backend;
    CHECK_ST(mbp_init(&test_w, &prm), MBP_OK);
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        g_ob[i].live = false;
    }
    g_nprev = 0;
    scene s;
    s.rng = o->seed * 2654435761u + 1u;
    s.o = o;
    /* About one overlap per body: the extent grows with the square (cube) root of the count. */
    uint32_t side = 8u;
    while (side * side * (MBP_DIM == 3 ? side : 1u) < o->bodies * (MBP_DIM == 3 ? 300u : 60u)) {
        side++;
    }
    s.extent = (int32_t)side * 4;
    uint32_t bad = 0;
    for (uint32_t f = 0; f < o->frames; f++) {
        step(&s, f);
        mbp_status st = mbp_update(&test_w);
        if (!compare(f, st)) {
            bad++;
            if (bad >= 3u) {
                break; /* the first mismatches say it all */
            }
        }
    }
    CHECK_EQ(bad, 0);
    return bad;
}
