/* SPDX-License-Identifier: MIT */
/* mbp_world.c: the bodies: handles, init and parameters, adding, moving (here the path that sets
 * any volume; the fast path of box moves is in mbp_move.c), static bodies, filters, removing, and
 * a body's box. The frame that turns the moves into pairs and events is in mbp_update.c, what the
 * user reads of them in mbp_output.c, queries in mbp_query.c.
 * A move costs O(1) plus the backend's move hook: the body is listed once for the next update
 * (mbp__mark_dirty(), mbp_internal.h).
 */
#include "mbp_internal.h"

/* ---- handles ---- */

MBP__HOT bool handle_ok(const mbp_world *w, mbp_body h)
{
    if (h.slot1 == 0u || h.slot1 > MBP_MAX_BODIES) {
        return false;
    }
    uint16_t i = (uint16_t)(h.slot1 - 1u);
    return mbp__active(w, i) && w->gen[i] == h.gen;
}

bool mbp__handle_ok(const mbp_world *w, mbp_body h)
{
    return handle_ok(w, h);
}

bool mbp_valid(const mbp_world *w, mbp_body h)
{
    MBP__CHECK_WORLD(w);
    return handle_ok(w, h);
}

mbp_body mbp_handle(const mbp_world *w, uint16_t index)
{
    mbp_body h = {0u, 0u};
    MBP__CHECK_WORLD(w);
    if (index < MBP_MAX_BODIES && mbp__active(w, index)) {
        h.slot1 = (uint16_t)(index + 1u);
        h.gen = w->gen[index];
    }
    return h;
}

uint32_t mbp_user(const mbp_world *w, uint16_t index)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(index < MBP_MAX_BODIES);
    return index < MBP_MAX_BODIES ? w->user[index] : 0u; /* 0 when MBP_ASSERT is 0 */
}

uint32_t mbp_body_count(const mbp_world *w)
{
    MBP__CHECK_WORLD(w);
    return w->live_count;
}

/* ---- init ---- */

void mbp_params_default(mbp_params *p)
{
    MBP__ASSERT(p != NULL);
    p->id = 0u;
    p->tree_margin = MBP_ONE / 16;
    p->tree_margin_frac = 0u;
    p->tree_sweep = 8u;
    p->sweep_axis = MBP_AXIS_AUTO;
    p->aabb_only = 0u;
    p->sap_budget = 32u;
#if MBP_WITH_SAP && MBP_SAP_QUANTIZED
    mbp__sap_default_world(&p->sap_world);
#endif
    p->cell_size = 4 * MBP_ONE;
    p->hash_buckets = MBP_HASH_BUCKETS;
    uint32_t side = 1u; /* the largest square (cube) of cells that MBP_GRID_MAX_CELLS allows */
    while ((side + 1u) * (side + 1u) * (MBP_DIM == 3 ? side + 1u : 1u) <= MBP_GRID_MAX_CELLS) {
        side++;
    }
    for (int k = 0; k < MBP_DIM; k++) {
        p->grid_origin[k] = 0;
        p->grid_cells[k] = (uint16_t)(side < 65535u ? side : 65535u);
    }
    /* Quadtree: cells of 4 units, 6 levels (fewer while the world passes 2^32 raw units), the
     * world box centred on 0 (its corner clamped to the range). */
    p->quadtree_cell = 4 * MBP_ONE;
#if MBP_SCALAR == MBP_FIXED
    /* 4 units are 2^(frac + 2) raw units: the world 2^(frac + 2 + depth) < 2^32. */
#define MBP__QT_DEPTH (MBP_FIXED_FRAC_BITS > 23 ? 29 - MBP_FIXED_FRAC_BITS : 6)
    p->quadtree_depth = (uint8_t)MBP__QT_DEPTH;
    int64_t half = (int64_t)1 << (MBP_FIXED_FRAC_BITS + 1 + MBP__QT_DEPTH);
    mbp_scalar corner = (mbp_scalar)(half > MBP_RANGE ? -MBP_RANGE : -half);
#else
    p->quadtree_depth = 6u;
    mbp_scalar corner = -128 * MBP_ONE;
#endif
    for (int k = 0; k < MBP_DIM; k++) {
        p->quadtree_origin[k] = corner;
    }
#if MBP_WITH_SAP
    p->backend = MBP_SAP;
#elif MBP_WITH_TREE
    p->backend = MBP_TREE;
#elif MBP_WITH_GRID
    p->backend = MBP_GRID;
#elif MBP_WITH_SWEEP
    p->backend = MBP_SWEEP;
#elif MBP_WITH_BRUTE
    p->backend = MBP_BRUTE;
#elif MBP_WITH_HASH
    p->backend = MBP_HASH;
#else
    p->backend = MBP_HGRID;
#endif
}

mbp_status MBP_INIT_SYMBOL(mbp_world *w, const mbp_params *p, uint32_t world_size,
                           unsigned long signature)
{
    MBP__ASSERT(w != NULL);
    if (world_size != (uint32_t)sizeof(mbp_world) || signature != MBP_CONFIG_SIGNATURE) {
        return MBP_E_CONFIG;
    }
    mbp_params def;
    if (p == NULL) {
        mbp_params_default(&def);
        p = &def;
    }
    if (!mbp__backend_compiled(p->backend)) {
        return MBP_E_BACKEND;
    }
    /* Generations start at a value mixed from the id and the address, so that a handle of one
     * world is unlikely to pass in another; they are never 0, so the null handle never passes.
     * Re-initialising a world (the struct still holds an initialised one) carries each slot's
     * generation on by one instead, so that no handle of the old world passes in the new. */
    bool again = w->magic == MBP__MAGIC;
    w->magic = 0u;
    w->params = *p;
    uint32_t salt = ((uint32_t)(uintptr_t)w >> 3) * 2654435761u ^ (uint32_t)p->id * 40503u;
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        uint16_t g = again ? (uint16_t)(w->gen[i] + 1u) : (uint16_t)((salt >> 16) + i * 0x9E37u);
        w->gen[i] = g != 0u ? g : 1u;
        w->flags[i] = 0u;
        w->user[i] = 0u;
        w->category[i] = (uint16_t)(i + 2u <= MBP_MAX_BODIES ? i + 2u : 0u); /* the free list */
    }
    w->free_head = 1u;
    w->dying_head = 0u;
    w->dirty_count = 0u;
    w->live_count = 0u;
    w->high = 0u;
    w->special = 0u;
    w->special_count = 0u;
    w->restart = 0u;
    mbp__pairs_clear(&w->pairs);
#if MBP__POOL
    mbp__pool_init(w);
#endif
    w->stats = (mbp_stats){0u, 0u, 0u, 0u, 0u, 0u};
    w->magic = MBP__MAGIC;
    mbp_status st = mbp__backend_init(w);
    if (st != MBP_OK) {
        w->magic = 0u;
    }
    return st;
}

/* ---- bodies ---- */

void mbp__set_flags(mbp_world *w, uint16_t i, uint32_t f)
{
    bool was = (w->flags[i] & MBP__SPECIAL) != 0u, now = (f & MBP__SPECIAL) != 0u;
    if (was != now) {
        w->special_count = (uint16_t)(now ? w->special_count + 1u : w->special_count - 1u);
    }
    if (now) {
        w->special = 1u;
    }
    w->flags[i] = (uint8_t)f;
}

mbp_status mbp__add_body(mbp_world *w, const mbp_aabb *box, const mbp_sphere *s,
                         const mbp_shape *shape, uint32_t user, mbp_body *out)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(out != NULL);
    if (w->free_head == 0u) {
        return MBP_E_FULL;
    }
    uint16_t i = (uint16_t)(w->free_head - 1u);
#if MBP__POOL
    mbp_aabb bound; /* shapes: room in the pool first, so nothing changes on MBP_E_FULL */
    mbp_status pst = mbp__pool_prepare(w, i, box, s, shape, &bound);
    if (pst != MBP_OK) {
        return pst;
    }
#else
    (void)shape;
#endif
    w->box[i] = *box;
    uint32_t f = MBP__LIVE;
#if MBP_WITH_SPHERES
    if (s != NULL) {
        w->sphere[i] = *s;
        f |= MBP__SPHERE;
    }
#else
    (void)s;
#endif
    mbp__set_flags(w, i, f);
    mbp_status st = mbp__backend_add(w, i);
    if (st != MBP_OK) {
        mbp__set_flags(w, i, 0u);
        return st;
    }
#if MBP__POOL
    mbp__pool_commit(w, i, box, s, shape);
#endif
    w->free_head = w->category[i]; /* the free list's link, then the body's category */
    w->user[i] = user;
    w->category[i] = MBP_DEFAULT_CATEGORY;
    w->mask[i] = MBP_DEFAULT_MASK;
    mbp__mark_dirty(w, i);
    w->live_count++;
    if (i >= w->high) {
        w->high = (uint16_t)(i + 1u);
    }
    out->slot1 = (uint16_t)(i + 1u);
    out->gen = w->gen[i];
    return MBP_OK;
}

mbp_status mbp_add_box(mbp_world *w, const mbp_aabb *box, uint32_t user, mbp_body *out)
{
    MBP__ASSERT(box != NULL);
    mbp_status st = mbp_aabb_check(box);
    return st != MBP_OK ? st : mbp__add_body(w, box, NULL, NULL, user, out);
}

#if MBP_WITH_SPHERES
mbp_status mbp_add_sphere(mbp_world *w, const mbp_sphere *s, uint32_t user, mbp_body *out)
{
    mbp_aabb box;
    mbp_status st = mbp_sphere_check(s);
    if (st != MBP_OK) {
        return st;
    }
    mbp_sphere_aabb(s, &box);
    return mbp__add_body(w, &box, s, NULL, user, out);
}
#endif

/* Inlined into mbp_move_box(), the hot path, where s and shape are NULL and fold away. */
MBP__HOT mbp_status move_body(mbp_world *w, mbp_body h, const mbp_aabb *box, const mbp_sphere *s,
                              const mbp_shape *shape)
{
    MBP__CHECK_WORLD(w);
    if (!handle_ok(w, h)) {
        return MBP_E_STALE;
    }
    uint16_t i = (uint16_t)(h.slot1 - 1u);
#if MBP__POOL
    /* Shape and fast bodies (mbp_shape_body.c): room in the pool, a fast body's step bound. */
    mbp_aabb bound;
    const mbp_aabb *own = box;
    mbp_status pst = mbp__pool_prepare(w, i, box, s, shape, &bound);
    if (pst != MBP_OK) {
        return pst;
    }
    box = &bound;
#else
    (void)shape;
#endif
    if (mbp__backend_wants_moves(w)) {
        mbp_status st = mbp__backend_move(w, i, box); /* before the store: it reads the old box */
        if (st != MBP_OK) {
            return st;
        }
    }
    w->box[i] = *box;
#if MBP__POOL
    mbp__pool_commit(w, i, own, s, shape);
#endif
#if MBP_WITH_SPHERES
    if (s != NULL) {
        w->sphere[i] = *s;
        mbp__set_flags(w, i, w->flags[i] | MBP__SPHERE);
    } else {
        mbp__set_flags(w, i, w->flags[i] & ~MBP__SPHERE);
    }
#else
    (void)s;
#endif
    mbp__mark_dirty(w, i);
    return MBP_OK;
}

mbp_status mbp__move_body(mbp_world *w, mbp_body h, const mbp_aabb *box, const mbp_sphere *s,
                          const mbp_shape *shape)
{
    return move_body(w, h, box, s, shape);
}

/* Any box move that mbp_move.c's fast path did not take: the checks that tell which error, and
 * the sphere, shape and fast bodies. Three arguments: the callers' calls to it are tail calls,
 * with no frame of their own on the stack. */
mbp_status mbp__move_box_slow(mbp_world *w, mbp_body h, const mbp_aabb *box)
{
    if (!mbp__box_good(box)) {
        return mbp_aabb_check(box); /* which error */
    }
    return move_body(w, h, box, NULL, NULL);
}

mbp_status mbp_add_static_box(mbp_world *w, const mbp_aabb *box, uint32_t user, mbp_body *out)
{
    mbp_status st = mbp_add_box(w, box, user, out);
    if (st == MBP_OK) {
        /* Added bodies report no candidate before the next update: nothing to undo. */
        uint16_t i = (uint16_t)(out->slot1 - 1u);
        mbp__set_flags(w, i, w->flags[i] | MBP__STATIC);
    }
    return st;
}

#if MBP_WITH_SPHERES
mbp_status mbp_move_sphere(mbp_world *w, mbp_body h, const mbp_sphere *s)
{
    mbp_aabb box;
    mbp_status st = mbp_sphere_check(s);
    if (st != MBP_OK) {
        return st;
    }
    mbp_sphere_aabb(s, &box);
    return mbp__move_body(w, h, &box, s, NULL);
}
#endif

mbp_status mbp_set_filter(mbp_world *w, mbp_body h, uint16_t category, uint16_t mask)
{
    MBP__CHECK_WORLD(w);
    if (!handle_ok(w, h)) {
        return MBP_E_STALE;
    }
    uint16_t i = (uint16_t)(h.slot1 - 1u);
    w->category[i] = category;
    w->mask[i] = mask;
    if (category == MBP_DEFAULT_CATEGORY && mask == MBP_DEFAULT_MASK) {
        mbp__set_flags(w, i, w->flags[i] & ~MBP__FILTER);
    } else {
        mbp__set_flags(w, i, w->flags[i] | MBP__FILTER);
    }
    mbp__mark_dirty(w, i); /* its candidate pairs are tested again at the next update */
    return MBP_OK;
}

mbp_status mbp_remove(mbp_world *w, mbp_body h)
{
    MBP__CHECK_WORLD(w);
    if (!handle_ok(w, h)) {
        return MBP_E_STALE;
    }
    uint16_t i = (uint16_t)(h.slot1 - 1u);
    mbp__backend_remove(w, i);
#if MBP__POOL
    mbp__pool_release(w, i);
#endif
    mbp__set_flags(w, i, w->flags[i] | MBP__DYING);
    /* 65535 wraps to 1: a generation is never 0. */
    w->gen[i] = (uint16_t)(w->gen[i] == 0xFFFFu ? 1u : w->gen[i] + 1u);
    w->category[i] = w->dying_head; /* a dying body has no filter: its pairs only end */
    w->dying_head = h.slot1;
    w->live_count--;
    return MBP_OK;
}

mbp_status mbp_remove_at(mbp_world *w, uint16_t index)
{
    return mbp_remove(w, mbp_handle(w, index));
}

mbp_status mbp_get_box(const mbp_world *w, mbp_body h, mbp_aabb *out)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(out != NULL);
    if (!handle_ok(w, h)) {
        return MBP_E_STALE;
    }
    *out = w->box[h.slot1 - 1u];
    return MBP_OK;
}
