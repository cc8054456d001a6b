/* SPDX-License-Identifier: MIT */
/* scene.c: the generated bench scenes, from a fixed seed, the same frames on every platform.
 *
 * All motion is integer arithmetic in 1/256 of a coordinate unit ("q"), converted to mbp_scalar
 * only when a box is emitted, so host, Cortex-M and fixed-point builds see the same boxes. The
 * world grows with n so that the density, hence the pairs per body, stays the same at every n.
 * Bodies never interact (there is no physics here): the motion depends only on the seed.
 */
#include "bench.h"

#define Q 256 /* q per unit */

typedef struct {
    int32_t p[MBP_DIM]; /* centre */
    int32_t h[MBP_DIM]; /* half extent */
    int32_t v[MBP_DIM]; /* velocity, q per frame */
    int32_t rest;       /* cluster: the height (last axis) where the body comes to rest */
    uint8_t asleep;     /* cluster: landed for good */
} gbody;

typedef struct {
    bench_scene sc;
    uint32_t n;
    uint32_t seed, rng;
    int32_t ext[MBP_DIM]; /* the world is [0, ext] on each axis, in q */
} gscene;

static gscene g_scene;
static gbody g_b[MBP_MAX_BODIES];
static bench_op g_ops[MBP_MAX_BODIES];

static const char *const k_names[SCENE_COUNT] = {"sparse", "dense", "cluster", "teleport", "static",
                                                    "calm", "mixed"};

static uint32_t rnd(gscene *g)
{
    uint32_t x = g->rng;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    g->rng = x;
    return x;
}

/* Uniform in [lo, hi]. */
static int32_t rnd_in(gscene *g, int32_t lo, int32_t hi)
{
    uint32_t span = (uint32_t)(hi - lo) + 1u;
    return lo + (int32_t)(((uint64_t)rnd(g) * span) >> 32);
}

static mbp_scalar to_scalar(int32_t q)
{
#if MBP_SCALAR == MBP_FIXED
#if MBP_FIXED_FRAC_BITS >= 8
    return (mbp_scalar)(q * ((int32_t)1 << (MBP_FIXED_FRAC_BITS - 8)));
#else
    return (mbp_scalar)(q / ((int32_t)1 << (8 - MBP_FIXED_FRAC_BITS)));
#endif
#else
    return (mbp_scalar)q * (1.0f / (float)Q);
#endif
}

static void body_box(const gbody *b, mbp_aabb *out)
{
    for (int k = 0; k < MBP_DIM; k++) {
        out->min[k] = to_scalar(b->p[k] - b->h[k]);
        out->max[k] = to_scalar(b->p[k] + b->h[k]);
    }
}

/* The smallest side (in units) whose DIM-th power is at least n * per_body. */
static int32_t side_for(uint32_t n, uint32_t per_body)
{
    uint32_t need = n * per_body, s = 1u;
    while ((MBP_DIM == 3 ? s * s * s : s * s) < need) {
        s++;
    }
    return (int32_t)s;
}

/* Boxes scattered uniformly with half extents in [hmin, hmax] q and speeds up to vmax q/frame. */
static void scatter(gscene *g, int32_t hmin, int32_t hmax, int32_t vmax)
{
    for (uint32_t i = 0; i < g->n; i++) {
        gbody *b = &g_b[i];
        for (int k = 0; k < MBP_DIM; k++) {
            b->h[k] = rnd_in(g, hmin, hmax);
            b->p[k] = rnd_in(g, b->h[k], g->ext[k] - b->h[k]);
            b->v[k] = rnd_in(g, -vmax, vmax);
        }
        b->asleep = 0u;
    }
}

/* A pile: columns across the floor, rows stacked 1.5 units apart; each body starts up to 6
 * units above its rest place, falls under gravity, bounces a little and stops. Neighbours'
 * boxes (0.5..1 unit half extents) overlap about half of the time once settled. */
static void pile(gscene *g)
{
    const int32_t pitch = 3 * Q / 2;
    uint32_t cols = 1u;
    while (cols * cols < 2u * g->n) {
        cols++;
    }
    uint32_t rows = (g->n + cols - 1u) / cols;
    uint32_t layer = MBP_DIM == 3 ? cols : 1u; /* 3D: a square floor of cols x cols */
    for (int k = 0; k < MBP_DIM - 1; k++) {
        g->ext[k] = (int32_t)cols * pitch + pitch;
    }
    g->ext[MBP_DIM - 1] = (int32_t)(rows / layer + 1u) * pitch + 7 * Q;
    for (uint32_t i = 0; i < g->n; i++) {
        gbody *b = &g_b[i];
        uint32_t col = i % cols, row = i / cols;
        for (int k = 0; k < MBP_DIM; k++) {
            b->h[k] = rnd_in(g, Q / 2, Q);
            b->v[k] = 0;
        }
        b->p[0] = (int32_t)col * pitch + pitch + rnd_in(g, -Q / 8, Q / 8);
#if MBP_DIM == 3
        b->p[1] = (int32_t)(row % layer) * pitch + pitch + rnd_in(g, -Q / 8, Q / 8);
        row /= layer;
#endif
        b->rest = (int32_t)row * pitch + b->h[MBP_DIM - 1];
        b->p[MBP_DIM - 1] = b->rest + rnd_in(g, 0, 6 * Q);
        b->asleep = 0u;
    }
}

/* ---- mixed: small fast bodies among a few large slow ones ----
 * One body in 64 (at least one) is large: half extents 6..16 units, speed up to 1/32 unit per
 * frame. The others are small: half extents 1/8..1/4 unit, speed up to 1/2 unit per frame (one
 * to four of their own sizes). Edges from 1/4 to 32 units: over two orders of magnitude. The
 * world (64 square units, 512 cubic, per body) keeps the small ones sparse; each large one
 * covers a few dozen of them. Motion: drift(), as sparse. */
#define MIXED_LARGE_EVERY 64u

static void mixed(gscene *g)
{
    for (int k = 0; k < MBP_DIM; k++) {
        g->ext[k] = side_for(g->n, MBP_DIM == 3 ? 512u : 64u) * Q;
    }
    for (uint32_t i = 0; i < g->n; i++) {
        gbody *b = &g_b[i];
        bool large = i % MIXED_LARGE_EVERY == 0u;
        for (int k = 0; k < MBP_DIM; k++) {
            b->h[k] = large ? rnd_in(g, 6 * Q, 16 * Q) : rnd_in(g, Q / 8, Q / 4);
            int32_t room = g->ext[k] - b->h[k];
            b->p[k] = rnd_in(g, b->h[k] < room ? b->h[k] : room, room > b->h[k] ? room : b->h[k]);
            b->v[k] = large ? rnd_in(g, -Q / 32, Q / 32) : rnd_in(g, -Q / 2, Q / 2);
        }
        b->asleep = 0u;
    }
}
/* ---- end of mixed ---- */

static void reset(bench_source *s)
{
    gscene *g = (gscene *)s->ctx;
    g->rng = g->seed;
    switch (g->sc) {
    case SCENE_DENSE:
        for (int k = 0; k < MBP_DIM; k++) {
            g->ext[k] = side_for(g->n, MBP_DIM == 3 ? 24u : 8u) * Q;
        }
        scatter(g, Q, 3 * Q, Q / 4);
        break;
    case SCENE_CLUSTER:
        pile(g);
        break;
    case SCENE_MIXED:
        mixed(g);
        break;
    default: /* sparse, teleport, static */
        for (int k = 0; k < MBP_DIM; k++) {
            g->ext[k] = side_for(g->n, MBP_DIM == 3 ? 64u : 16u) * Q;
        }
        scatter(g, Q / 2, 3 * Q / 2, Q / 4);
        break;
    }
    for (int k = 0; k < MBP_DIM; k++) {
        s->lo[k] = to_scalar(0);
        s->hi[k] = to_scalar(g->ext[k]);
    }
    /* About twice the mean box edge. */
    s->cell = to_scalar(g->sc == SCENE_DENSE     ? 8 * Q
                        : g->sc == SCENE_CLUSTER ? 3 * Q
                        : g->sc == SCENE_MIXED   ? Q /* the small bodies' */
                                                 : 4 * Q);
}

/* Straight motion, bouncing off the walls of [0, ext]. */
static void drift(const gscene *g, gbody *b)
{
    for (int k = 0; k < MBP_DIM; k++) {
        b->p[k] += b->v[k];
        if (b->p[k] - b->h[k] < 0) {
            b->p[k] = b->h[k];
            b->v[k] = b->v[k] < 0 ? -b->v[k] : b->v[k];
        } else if (b->p[k] + b->h[k] > g->ext[k]) {
            b->p[k] = g->ext[k] - b->h[k];
            b->v[k] = b->v[k] > 0 ? -b->v[k] : b->v[k];
        }
    }
}

/* Gravity on the last axis; lands on b->rest, bounces at 3/8 of its speed, sleeps when slow. */
static bool fall(gbody *b)
{
    const int k = MBP_DIM - 1;
    if (b->asleep) {
        return false;
    }
    b->v[k] -= Q / 16;
    b->p[k] += b->v[k];
    if (b->p[k] <= b->rest) {
        b->p[k] = b->rest;
        b->v[k] = -b->v[k] * 3 / 8;
        if (b->v[k] < Q / 16) {
            b->v[k] = 0;
            b->asleep = 1u;
        }
    }
    return true;
}

static const bench_op *frame(bench_source *s, uint32_t f, uint32_t *count)
{
    gscene *g = (gscene *)s->ctx;
    uint32_t m = 0u;
    if (f == 0u) {
        for (uint32_t i = 0; i < g->n; i++) {
            g_ops[m].kind = BENCH_ADD;
            g_ops[m].id = (uint16_t)i;
            body_box(&g_b[i], &g_ops[m].box);
            m++;
        }
        *count = m;
        return g_ops;
    }
    if (g->sc == SCENE_STATIC) {
        *count = 0u;
        return g_ops;
    }
    if (g->sc == SCENE_TELEPORT) {
        uint32_t jumps = g->n / 100u > 0u ? g->n / 100u : 1u;
        for (uint32_t j = 0; j < jumps; j++) {
            gbody *b = &g_b[rnd(g) % g->n];
            for (int k = 0; k < MBP_DIM; k++) {
                b->p[k] = rnd_in(g, b->h[k], g->ext[k] - b->h[k]);
            }
        }
    }
    for (uint32_t i = 0; i < g->n; i++) {
        if (g->sc == SCENE_CLUSTER) {
            if (!fall(&g_b[i])) {
                continue; /* a sleeping body is not moved, as a physics engine would do */
            }
        } else if (g->sc == SCENE_CALM && i % 16u != 0u) {
            continue; /* asleep */
        } else {
            drift(g, &g_b[i]);
        }
        g_ops[m].kind = BENCH_MOVE;
        g_ops[m].id = (uint16_t)i;
        body_box(&g_b[i], &g_ops[m].box);
        m++;
    }
    *count = m;
    return g_ops;
}

void scene_make(bench_source *s, bench_scene sc, uint32_t n)
{
    gscene *g = &g_scene;
    g->sc = sc;
    g->n = n <= MBP_MAX_BODIES ? n : MBP_MAX_BODIES;
    g->seed = 0x5EED1234u ^ ((uint32_t)sc * 0x9E3779B9u) ^ (n * 2654435761u);
    if (g->seed == 0u) {
        g->seed = 1u;
    }
    s->name = k_names[sc];
    s->n = g->n;
    s->reset = reset;
    s->frame = frame;
    s->ctx = g;
    reset(s); /* fills the bounds and the cell size */
}
