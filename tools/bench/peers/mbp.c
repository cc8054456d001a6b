/* SPDX-License-Identifier: MIT */
/* mbp.c: every mbp backend compiled in, as make bench-peers runs them, on the public API of
 * lib/mbp.h as a user would call it: mbp_add_box (mbp_add_static_box for a scene's static bodies,
 * the level tiles), the frame's moves gathered and given to mbp_move_boxes in one call, mbp_remove,
 * mbp_update, then the plain array of mbp_pairs for the walk. The moves are handed over before any
 * add or remove that follows them, and before the update, so the order of the frame is kept.
 * The world is the fixed struct of config/mbp_config_bench.h (capacity n, 8 pairs per body);
 * its bytes are counted as make bench counts them: the world without the backend union, plus
 * that backend's member of it, per body of capacity.
 */
#include "peers.h"

#include <stdlib.h>

typedef struct {
    mbp_world w;
    mbp_body h[MBP_MAX_BODIES];    /* id -> handle */
    uint16_t id[MBP_MAX_BODIES];   /* body index -> id */
    /* The frame's moves not yet handed over: handles and boxes side by side. */
    mbp_body mh[MBP_MAX_BODIES];
    mbp_aabb mbox[MBP_MAX_BODIES];
    uint32_t nmoves;
    uint32_t statics; /* ids below this are static bodies (the scene's) */
    size_t bytes;
} mbpx;

static const struct {
    mbp_backend b;
    const char *name;
    size_t state;
} k_be[] = {
#if MBP_WITH_BRUTE
    {MBP_BRUTE, "mbp-brute", 0u},
#endif
#if MBP_WITH_SWEEP
    {MBP_SWEEP, "mbp-sweep", sizeof(mbp_sweep_state)},
#endif
#if MBP_WITH_SAP
    {MBP_SAP, "mbp-sap", sizeof(mbp_sap_state)},
#endif
#if MBP_WITH_GRID
    {MBP_GRID, "mbp-grid", sizeof(mbp_grid_state)},
#endif
#if MBP_WITH_HASH
    {MBP_HASH, "mbp-hash", sizeof(mbp_grid_state)},
#endif
#if MBP_WITH_HGRID
    {MBP_HGRID, "mbp-hgrid", sizeof(mbp_hgrid_state)},
#endif
#if MBP_WITH_TREE
    {MBP_TREE, "mbp-tree", sizeof(mbp_tree_state)},
#endif
#if MBP_WITH_QUADTREE
    {MBP_QUADTREE, "mbp-quadtree", sizeof(mbp_quadtree_state)},
#endif
};

/* make bench's parameters (bench_params(), tools/bench/scene.c). */
static void *mbp_create(const peer_method *m, const bench_source *s)
{
    mbpx *x = calloc(1u, sizeof *x);
    mbp_params p;
    bench_params(&p, k_be[m->variant].b, s);
    if (x == NULL || mbp_init(&x->w, &p) != MBP_OK) {
        free(x);
        return NULL;
    }
    x->statics = s->statics;
    /* Per body of capacity, times the scene's bodies: a recorded scene runs in a world sized
     * for the largest n, whereas a user would size it for the scene. */
    x->bytes = (offsetof(mbp_world, be) + k_be[m->variant].state) * s->n / MBP_MAX_BODIES;
    return x;
}

/* Hands the gathered moves to the world in one call. */
static void flush_moves(mbpx *x)
{
    if (x->nmoves > 0u) {
        (void)mbp_move_boxes(&x->w, x->nmoves, x->mh, x->mbox, NULL);
        x->nmoves = 0u;
    }
}

static void mbp_add(void *v, uint32_t id)
{
    mbpx *x = v;
    flush_moves(x);
    mbp_status st = id < x->statics ? mbp_add_static_box(&x->w, &g_box[id], id, &x->h[id])
                                    : mbp_add_box(&x->w, &g_box[id], id, &x->h[id]);
    if (st == MBP_OK) {
        x->id[x->h[id].slot1 - 1u] = (uint16_t)id;
    }
}

static void mbp_move(void *v, uint32_t id)
{
    mbpx *x = v;
    if (x->nmoves == MBP_MAX_BODIES) { /* a body moved twice in a frame: keep the order */
        flush_moves(x);
    }
    x->mh[x->nmoves] = x->h[id];
    x->mbox[x->nmoves++] = g_box[id];
}

static void mbp_rem(void *v, uint32_t id)
{
    mbpx *x = v;
    flush_moves(x);
    (void)mbp_remove(&x->w, x->h[id]);
}

static void mbp_upd(void *v)
{
    mbpx *x = v;
    flush_moves(x);
    (void)mbp_update(&x->w);
}

static void mbp_walk(void *v)
{
    mbpx *x = v;
    uint32_t n;
    const mbp_pair *p = mbp_pairs(&x->w, &n);
    for (uint32_t k = 0; k < n; k++) {
        peer_pair(x->id[p[k].a], x->id[p[k].b]);
    }
}

static size_t mbp_bytes(void *v)
{
    return ((const mbpx *)v)->bytes;
}

void peers_mbp(peer_method *list, int *count)
{
    for (int i = 0; i < (int)(sizeof k_be / sizeof k_be[0]); i++) {
        list[(*count)++] = (peer_method){k_be[i].name, "mbp", mbp_create, mbp_add, mbp_move,
                                         mbp_rem, mbp_upd, mbp_walk, mbp_bytes, free, i};
    }
}
