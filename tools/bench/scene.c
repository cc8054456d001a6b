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
                                                    "calm", "mixed", "level", "smash"};

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

static void drift(const gscene *g, gbody *b);

/* ---- level: static tiles and a few movers ----
 * One body in 16 (at least one) moves; the others are unit tiles on the lattice cells of the
 * floors (every 4th row, on the last axis) and walls (every 8th column, on the first), filled
 * row by row: level geometry whose tiles touch their neighbours. Ids 0..statics-1 are the tiles,
 * added static. The movers, half extents 1/4..1/2 unit, drift at up to 1/4 unit per frame
 * through them (no physics). */
static bool level_cell(const int32_t c[MBP_DIM])
{
    return c[MBP_DIM - 1] % 4 == 0 || c[0] % 8 == 0;
}

/* The lattice cell of index i in a cube of side cells, first axis fastest. */
static void level_coords(uint32_t i, int32_t side, int32_t c[MBP_DIM])
{
    for (int k = 0; k < MBP_DIM; k++) {
        c[k] = (int32_t)(i % (uint32_t)side);
        i /= (uint32_t)side;
    }
}

static uint32_t level(gscene *g)
{
    uint32_t movers = g->n / 16u > 0u ? g->n / 16u : 1u;
    uint32_t tiles = g->n - movers;
    int32_t side = 1; /* the smallest square (cube) of cells with room for the tiles */
    for (;;) {
        uint32_t cells = 0u, all = (uint32_t)(MBP_DIM == 3 ? side * side * side : side * side);
        int32_t c[MBP_DIM];
        for (uint32_t i = 0; i < all; i++) {
            level_coords(i, side, c);
            cells += level_cell(c) ? 1u : 0u;
        }
        if (cells >= tiles) {
            break;
        }
        side++;
    }
    for (int k = 0; k < MBP_DIM; k++) {
        g->ext[k] = side * Q;
    }
    uint32_t t = 0u;
    for (uint32_t i = 0; t < tiles; i++) {
        int32_t c[MBP_DIM];
        level_coords(i, side, c);
        if (!level_cell(c)) {
            continue;
        }
        gbody *b = &g_b[t++];
        for (int k = 0; k < MBP_DIM; k++) {
            b->h[k] = Q / 2;
            b->p[k] = c[k] * Q + Q / 2;
            b->v[k] = 0;
        }
        b->asleep = 1u;
    }
    for (uint32_t i = tiles; i < g->n; i++) {
        gbody *b = &g_b[i];
        for (int k = 0; k < MBP_DIM; k++) {
            b->h[k] = rnd_in(g, Q / 4, Q / 2);
            b->p[k] = rnd_in(g, b->h[k], g->ext[k] - b->h[k]);
            b->v[k] = rnd_in(g, -Q / 4, Q / 4);
        }
        b->asleep = 0u;
    }
    return tiles;
}

/* ---- smash: a heavy body through a packed grid ----
 * Body 0 is heavy: half extent 3 units, moving 2 units a frame along the first axis (a little
 * on the others), bouncing off the walls. The others rest in a packed grid of unit boxes that
 * touch (every box pairs with its 8 (26) neighbours). A resting box the heavy body overlaps is
 * knocked: it takes 3/4 of the heavy body's velocity plus a random sideways part, slows by 1/8
 * each frame, and rests again below 1/16 unit per frame, where it stopped. As in a recorded
 * smash (a heavy box through a packed grid), a crowd of bodies moves near the heavy one, some
 * by more than their own size a frame, and most rest. */
#define SMASH_HEAVY_H (3 * Q)
#define SMASH_HEAVY_V (2 * Q)

static void smash(gscene *g)
{
    uint32_t boxes = g->n - 1u, cols = 1u;
    while ((MBP_DIM == 3 ? cols * cols * cols : cols * cols) < boxes) {
        cols++;
    }
    const int32_t margin = 4 * SMASH_HEAVY_H;
    for (int k = 0; k < MBP_DIM; k++) {
        g->ext[k] = (int32_t)cols * Q + 2 * margin;
    }
    gbody *h = &g_b[0];
    for (int k = 0; k < MBP_DIM; k++) {
        h->h[k] = SMASH_HEAVY_H;
        h->p[k] = k == 0 ? SMASH_HEAVY_H : g->ext[k] / 2;
        h->v[k] = k == 0 ? SMASH_HEAVY_V : rnd_in(g, -Q / 8, Q / 8);
    }
    h->asleep = 0u;
    for (uint32_t i = 1; i < g->n; i++) {
        gbody *b = &g_b[i];
        uint32_t r = i - 1u;
        for (int k = 0; k < MBP_DIM; k++) {
            b->h[k] = Q / 2;
            b->p[k] = margin + (int32_t)(r % cols) * Q + Q / 2;
            b->v[k] = 0;
            r /= cols;
        }
        b->asleep = 1u;
    }
}

static bool gbody_overlap(const gbody *a, const gbody *b)
{
    for (int k = 0; k < MBP_DIM; k++) {
        int32_t d = a->p[k] - b->p[k];
        if ((d < 0 ? -d : d) > a->h[k] + b->h[k]) {
            return false;
        }
    }
    return true;
}

/* One frame of smash for body i (> 0): true when it moved. */
static bool smash_step(gscene *g, gbody *b)
{
    const gbody *h = &g_b[0];
    if (b->asleep) {
        if (!gbody_overlap(h, b)) {
            return false;
        }
        for (int k = 0; k < MBP_DIM; k++) {
            b->v[k] = h->v[k] * 3 / 4 + rnd_in(g, -Q / 2, Q / 2);
        }
        b->asleep = 0u;
    }
    drift(g, b);
    bool slow = true;
    for (int k = 0; k < MBP_DIM; k++) {
        b->v[k] -= b->v[k] / 8;
        slow = slow && b->v[k] < Q / 16 && b->v[k] > -Q / 16;
    }
    b->asleep = slow ? 1u : 0u;
    return true;
}
/* ---- end of level and smash ---- */

static void reset(bench_source *s)
{
    gscene *g = (gscene *)s->ctx;
    g->rng = g->seed;
    s->statics = 0u;
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
    case SCENE_LEVEL:
        s->statics = level(g);
        break;
    case SCENE_SMASH:
        smash(g);
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
                        : g->sc == SCENE_LEVEL || g->sc == SCENE_SMASH ? 2 * Q
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
        } else if (g->sc == SCENE_LEVEL && i < s->statics) {
            continue; /* a tile */
        } else if (g->sc == SCENE_SMASH && i > 0u) {
            if (!smash_step(g, &g_b[i])) {
                continue; /* resting */
            }
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

/* ---- the parameters every bench run gives a backend (make bench, make bench-peers) ---- */

void bench_params(mbp_params *p, mbp_backend b, const bench_source *s)
{
    mbp_params_default(p);
    p->backend = b;
#if MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID
    p->cell_size = s->cell;
#endif
#if MBP_WITH_GRID
    /* The grid covers the scene's region; coarser cells when the region needs too many. */
    for (;;) {
        uint32_t total = 1u;
        for (int k = 0; k < MBP_DIM; k++) {
            uint32_t c = (uint32_t)((s->hi[k] - s->lo[k]) / p->cell_size) + 1u;
            p->grid_origin[k] = s->lo[k];
            p->grid_cells[k] = (uint16_t)(c < 65535u ? c : 65535u);
            total = total <= MBP_GRID_MAX_CELLS ? total * p->grid_cells[k] : total;
        }
        if (b != MBP_GRID || total <= MBP_GRID_MAX_CELLS) {
            break;
        }
        p->cell_size = p->cell_size * 2;
    }
#endif
#if MBP_WITH_QUADTREE
    /* The quadtree's world box: the scene's region from its min corner, finest cells of the
     * scene's cell size, as many levels as cover the region; past 8 levels the finest cells grow
     * instead (deeper paths take more nodes than the bench's pool holds for small bodies). */
    p->quadtree_cell = s->cell;
    p->quadtree_depth = 0u;
    mbp_scalar ext = 0, edge = s->cell;
    for (int k = 0; k < MBP_DIM; k++) {
        p->quadtree_origin[k] = s->lo[k];
        ext = s->hi[k] - s->lo[k] > ext ? s->hi[k] - s->lo[k] : ext;
    }
    while (edge < ext && edge <= MBP_RANGE / 2) {
        edge = edge * 2;
        if (p->quadtree_depth < 8u) {
            p->quadtree_depth++;
        } else {
            p->quadtree_cell = p->quadtree_cell * 2;
        }
    }
#endif
    (void)s;
}

bool bench_gather_moves(const bench_op *ops, uint32_t m, const mbp_body *h, mbp_body *mh,
                        mbp_aabb *mbox)
{
    bool moves_only = m <= (uint32_t)MBP_MAX_BODIES;
    for (uint32_t j = 0; j < m && moves_only; j++) {
        moves_only = ops[j].kind == BENCH_MOVE;
        mh[j] = h[ops[j].id];
        mbox[j] = ops[j].box;
    }
    return moves_only;
}

mbp_status bench_apply_op(mbp_world *w, const bench_source *s, mbp_body *h, const bench_op *o)
{
    if (o->kind == BENCH_ADD && o->id < s->statics) {
        return mbp_add_static_box(w, &o->box, o->id, &h[o->id]);
    }
    if (o->kind == BENCH_ADD) {
        return mbp_add_box(w, &o->box, o->id, &h[o->id]);
    }
    if (o->kind == BENCH_MOVE) {
        return mbp_move_box(w, h[o->id], &o->box);
    }
    mbp_status st = mbp_remove(w, h[o->id]);
    h[o->id].slot1 = 0u;
    return st;
}
