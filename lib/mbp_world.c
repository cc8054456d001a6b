/* SPDX-License-Identifier: MIT */
/* mbp_world.c: bodies, handles, filters, moves (one and many), static bodies, and the frame and
 * its events. Queries are in mbp_query.c.
 *
 * The frame: the backend reports candidate pairs into the pair set (see mbp_internal.h); then
 * either one pass over the set applies the exact tests where needed, ends the pairs of removed
 * bodies and of lost candidates and writes the begun and ended events, or, on SAP with exact
 * values among plain boxes, apply_log() settles just the pairs the backend changed, or, in an
 * incremental frame with no body removed, test_moved() ends the logged candidates and tests the
 * pairs with a moved body in a light pass. The events are then sorted. Cost per frame: the
 * backend's, plus O(p) for p stored pairs (the pass; the light one about 10 instructions a pair
 * on the M4) or O(c) for c logged changes (the log), plus O(e log e) for e events, plus
 * O(moved).
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
        w->link[i] = (uint16_t)(i + 2u <= MBP_MAX_BODIES ? i + 2u : 0u);
    }
    w->free_head = 1u;
    w->dying_head = 0u;
    w->dirty_count = 0u;
    w->live_count = 0u;
    w->high = 0u;
    w->special = 0u;
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

MBP__HOT void mark_dirty(mbp_world *w, uint16_t i)
{
    /* Every change of a body's volume or filter comes here after its flags are set. */
    w->special |= (uint8_t)(w->flags[i] & (MBP__VOLUME | MBP__FILTER));
    if ((w->flags[i] & MBP__DIRTY) == 0u) {
        w->flags[i] |= MBP__DIRTY;
        w->dirty[w->dirty_count++] = i;
    }
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
    w->flags[i] = MBP__LIVE;
#if MBP_WITH_SPHERES
    if (s != NULL) {
        w->sphere[i] = *s;
        w->flags[i] |= MBP__SPHERE;
    }
#else
    (void)s;
#endif
    mbp_status st = mbp__backend_add(w, i);
    if (st != MBP_OK) {
        w->flags[i] = 0u;
        return st;
    }
#if MBP__POOL
    mbp__pool_commit(w, i, box, s, shape);
#endif
    w->free_head = w->link[i];
    w->user[i] = user;
    w->category[i] = MBP_DEFAULT_CATEGORY;
    w->mask[i] = MBP_DEFAULT_MASK;
    mark_dirty(w, i);
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
    /* Shapes and fast bodies (mbp_shape.c): room in the pool; a fast body's bound of the step. */
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
        mbp_aabb old = w->box[i];
        w->box[i] = *box;
        mbp_status st = mbp__backend_move(w, i, &old);
        if (st != MBP_OK) {
            w->box[i] = old;
            return st;
        }
    } else {
        w->box[i] = *box;
    }
#if MBP__POOL
    mbp__pool_commit(w, i, own, s, shape);
#endif
#if MBP_WITH_SPHERES
    if (s != NULL) {
        w->sphere[i] = *s;
        w->flags[i] |= MBP__SPHERE;
    } else {
        w->flags[i] &= (uint8_t)~MBP__SPHERE;
    }
#else
    (void)s;
#endif
    mark_dirty(w, i);
    return MBP_OK;
}

mbp_status mbp__move_body(mbp_world *w, mbp_body h, const mbp_aabb *box, const mbp_sphere *s,
                          const mbp_shape *shape)
{
    return move_body(w, h, box, s, shape);
}

/* The common move: a live box body (not a sphere, shape or fast body; other flags allowed) and a
 * good box. Then the box is stored, the backend told when it wants each move (wants), and the
 * body listed once for the next update: true, with the backend's status in *st (MBP_OK, or
 * MBP_E_NOROOM with the old box back). Anything else returns false for move_box() to sort out. */
MBP__HOT bool quick_move(mbp_world *w, mbp_body h, const mbp_aabb *box, bool wants,
                         mbp_status *st)
{
    uint32_t i = (uint32_t)h.slot1 - 1u; /* the null handle wraps past MBP_MAX_BODIES */
    if (i >= (uint32_t)MBP_MAX_BODIES) {
        return false;
    }
    uint32_t f = w->flags[i];
    if ((f & (MBP__LIVE | MBP__DYING | MBP__VOLUME)) != MBP__LIVE || w->gen[i] != h.gen ||
        !mbp__box_good(box)) {
        return false;
    }
    if (wants) {
        mbp_aabb old = w->box[i];
        w->box[i] = *box;
        *st = mbp__backend_move(w, (uint16_t)i, &old);
        if (*st != MBP_OK) {
            w->box[i] = old;
            return true;
        }
    } else {
        w->box[i] = *box;
        *st = MBP_OK;
    }
    if ((f & MBP__DIRTY) == 0u) {
        w->flags[i] = (uint8_t)(f | MBP__DIRTY);
        w->dirty[w->dirty_count++] = (uint16_t)i;
    }
    return true;
}

/* Any move of a box that quick_move() did not take: the checks that tell which error, and the
 * sphere, shape and fast bodies. */
static mbp_status move_box(mbp_world *w, mbp_body h, const mbp_aabb *box)
{
    if (!mbp__box_good(box)) {
        return mbp_aabb_check(box); /* which error */
    }
    return move_body(w, h, box, NULL, NULL);
}

mbp_status mbp_move_box(mbp_world *w, mbp_body h, const mbp_aabb *box)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(box != NULL);
    mbp_status st;
    if (quick_move(w, h, box, mbp__backend_wants_moves(w), &st)) {
        return st;
    }
    return move_box(w, h, box);
}

/* mbp_move_boxes() for a backend that reads the dirty list: quick_move() with the arrays and
 * the list's length in registers, the slow cases handed to move_box(). */
MBP__LOOP mbp_status move_list(mbp_world *w, uint32_t n, const mbp_body *bodies,
                               const mbp_aabb *boxes, uint32_t *done)
{
    /* The arrays' bases and the list's length in registers; each handle is read where it lies
     * (no copy kept for the slow path): fewer live values, so the loop spills less. */
    uint8_t *flags = w->flags;
    const uint16_t *gen = w->gen;
    mbp_aabb *box = w->box;
    uint16_t *dirty = w->dirty;
    uint32_t dc = w->dirty_count;
    mbp_status st = MBP_OK;
    uint32_t j = 0u;
    for (; j < n; j++) {
        const mbp_body *h = &bodies[j];
        const mbp_aabb *b = &boxes[j];
        uint32_t i = (uint32_t)h->slot1 - 1u; /* the null handle wraps past MBP_MAX_BODIES */
        uint32_t f = i < (uint32_t)MBP_MAX_BODIES ? flags[i] : 0u;
        if ((f & (MBP__LIVE | MBP__DYING | MBP__VOLUME)) == MBP__LIVE && gen[i] == h->gen &&
            mbp__box_good(b)) {
            box[i] = *b;
            if ((f & MBP__DIRTY) == 0u) {
                flags[i] = (uint8_t)(f | MBP__DIRTY);
                dirty[dc] = (uint16_t)i;
                dc++;
            }
        } else {
            w->dirty_count = (uint16_t)dc;
            st = move_box(w, *h, b);
            dc = w->dirty_count;
            if (st != MBP_OK) {
                break;
            }
        }
    }
    w->dirty_count = (uint16_t)dc;
    *done = j;
    return st;
}

mbp_status mbp_move_boxes(mbp_world *w, uint32_t n, const mbp_body *bodies,
                          const mbp_aabb *boxes, uint32_t *done)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(n == 0u || (bodies != NULL && boxes != NULL));
    uint32_t j = 0u;
    mbp_status st = MBP_OK;
    if (!mbp__backend_wants_moves(w)) {
        st = move_list(w, n, bodies, boxes, &j);
    } else {
        for (; j < n; j++) {
            if (!quick_move(w, bodies[j], &boxes[j], true, &st)) {
                st = move_box(w, bodies[j], &boxes[j]);
            }
            if (st != MBP_OK) {
                break;
            }
        }
    }
    if (done != NULL) {
        *done = j;
    }
    return st;
}

mbp_status mbp_add_static_box(mbp_world *w, const mbp_aabb *box, uint32_t user, mbp_body *out)
{
    mbp_status st = mbp_add_box(w, box, user, out);
    if (st == MBP_OK) {
        /* Added bodies report no candidate before the next update: nothing to undo. */
        w->flags[out->slot1 - 1u] |= MBP__STATIC;
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
        w->flags[i] &= (uint8_t)~MBP__FILTER;
    } else {
        w->flags[i] |= MBP__FILTER;
    }
    mark_dirty(w, i); /* its candidate pairs are tested again at the next update */
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
    w->flags[i] |= MBP__DYING;
    /* 65535 wraps to 1: a generation is never 0. */
    w->gen[i] = (uint16_t)(w->gen[i] == 0xFFFFu ? 1u : w->gen[i] + 1u);
    w->link[i] = w->dying_head;
    w->dying_head = h.slot1;
    w->live_count--;
    return MBP_OK;
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

/* ---- the exact test applied to every candidate ---- */

MBP__HOT mbp__volumes volumes_of(const mbp_world *w)
{
    mbp__volumes vol;
    vol.flags = w->flags;
    vol.box = w->box;
    vol.category = w->category;
    vol.mask = w->mask;
#if MBP_WITH_SPHERES
    vol.sphere = w->sphere;
#endif
#if MBP__POOL
    vol.shape_of = w->shape_of;
    vol.shapes = w->shapes;
#endif
    vol.aabb_only = w->params.aabb_only;
    return vol;
}

mbp__volumes mbp__world_volumes(const mbp_world *w)
{
    return volumes_of(w);
}

bool mbp__exact(const mbp_world *w, uint16_t a, uint16_t b)
{
    /* Two static bodies never pair; then the filters both ways, the boxes, the spheres, the shapes
     * and fast bodies: the test a full frame's sink makes (mbp__volumes_meet()). */
    mbp__volumes vol = volumes_of(w);
    return mbp__volumes_meet(&vol, a, b);
}

/* ---- the pair sink the backend reports into (mbp_bp.h, mbp_pairs.c) ---- */

static mbp__sink sink_of(mbp_world *w)
{
    mbp__sink out;
    out.ps = &w->pairs;
    out.vol = volumes_of(w);
    out.lost_last = w->stats.lost_pairs;
    out.tests = 0u;
    return out;
}

/* ---- the frame ---- */

/* The backend was built anew (mbp_shift_origin()): its candidates are reported afresh at the next
 * update. Every stored pair stops being a candidate until then (a pair not reported again ends
 * there), and every body counts as moved, so that every pair is tested. */
void mbp__pairs_restart(mbp_world *w)
{
    for (uint32_t k = 0; k < w->pairs.count; k++) {
        w->pairs.flag[k] &= (uint8_t)~MBP__CAND;
    }
    for (uint16_t i = 0; i < w->high; i++) {
        if (mbp__active(w, i)) {
            mark_dirty(w, i);
        }
    }
    w->restart = 1u;
}

/* Records pair key, dense index k, as begun or ended; an ended pair's event keeps its user slot
 * (MBP_PAIR_USER). */
static void push_event(mbp_world *w, uint32_t key, uint32_t k, bool begun)
{
    mbp_stats *s = &w->stats;
    if (s->begun + s->ended >= (uint32_t)MBP_MAX_EVENTS) {
        s->lost_events++;
        return;
    }
    uint32_t at = begun ? s->begun++ : (uint32_t)MBP_MAX_EVENTS - 1u - s->ended++;
    mbp_pair *e = &w->events[at];
    e->a = (uint16_t)(key >> 16);
    e->b = (uint16_t)(key & 0xFFFFu);
#if MBP_PAIR_USER
    w->event_user[at] = begun ? 0u : w->pairs.user[k];
#else
    (void)k;
#endif
}

/* Whether pair (a, b), with a moved body or new, overlaps now; fab holds both bodies' flags. Two
 * boxes with the default filters: only the box test of mbp__exact(), inlined, and not even that
 * when the backend's candidates are exactly the pairs whose boxes overlap (exact; every pair
 * tested is a candidate: the backend's ended ones are dropped first). */
MBP__HOT bool hit_now(const mbp_world *w, const mbp_aabb *box, uint32_t a, uint32_t b,
                      uint32_t fab, bool exact)
{
    if ((fab & (MBP__VOLUME | MBP__PASS)) == 0u) {
        return exact || mbp__boxes_meet(&box[a], &box[b]);
    }
    return mbp__exact(w, (uint16_t)a, (uint16_t)b);
}

/* Pair k, of bodies a < b and flags f, overlaps now (hit) or not: its event when that changed
 * since the last update, and its flags. */
MBP__HOT void settle(mbp_world *w, uint8_t *pflag, uint32_t k, uint32_t a, uint32_t b, uint32_t f,
                     bool hit)
{
    if (hit != ((f & MBP__PREV) != 0u)) {
        push_event(w, a << 16 | b, k, hit);
#if MBP_PAIR_USER
        w->pairs.user[k] = 0u; /* begun: starts at 0; ended, still a candidate: ready to begin */
#endif
    }
    pflag[k] = (uint8_t)(hit ? (MBP__CAND | MBP__HIT | MBP__PREV) : MBP__CAND);
}

/* The first part of the frame's walk over the pair set, when the backend ended candidates or
 * bodies were removed: drops the pairs that are no longer candidates or lost a body, with an end
 * event for those that overlapped. In a full frame (full: the sink decided every pair it stored,
 * and stored only hits) the same walk settles the rest, so no second walk is needed: it returns
 * the pairs that overlap then, else 0. */
static uint32_t drop_gone(mbp_world *w, bool full)
{
    mbp_pairset *ps = &w->pairs;
    const bool dying = w->dying_head != 0u;
    for (uint32_t k = 0; k < ps->count;) {
        uint32_t key = mbp__pkey(&ps->pair[k]);
        uint8_t f = ps->flag[k];
        if ((f & MBP__CAND) == 0u || (dying && (!mbp__active(w, (uint16_t)(key >> 16)) ||
                                                !mbp__active(w, (uint16_t)(key & 0xFFFFu))))) {
            if (f & MBP__PREV) {
                push_event(w, key, k, false);
            }
            mbp__pairs_remove_at(ps, k); /* the last entry moves to k: look at k again */
        } else {
            if (full) {
                MBP__ASSERT((f & MBP__HIT) != 0u);
                settle(w, ps->flag, k, key >> 16, key & 0xFFFFu, f, true);
            }
            k++;
        }
    }
    return full ? ps->count : 0u;
}

/* The rest, in a frame that is not full: tests again the pairs with a moved body or new, records
 * begin and end events. Returns the pairs that overlap. A function of its own, with no call on
 * its common path: the loop keeps its variables in registers. */
MBP__LOOP uint32_t test_pairs(mbp_world *w, bool exact)
{
    mbp_pairset *ps = &w->pairs;
    const uint8_t *flags = w->flags;
    const mbp_aabb *box = w->box;
    const mbp_pair *pairs = ps->pair;
    uint8_t *pflag = ps->flag;
    const uint32_t n = ps->count;
    uint32_t hits = 0u;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t a = pairs[k].a, b = pairs[k].b;
        uint32_t f = pflag[k];
        uint32_t fab = (uint32_t)flags[a] | flags[b]; /* both bodies' flags */
        bool hit;
        /* NEW is a pair flag, DIRTY a body flag. */
        if (((f & MBP__NEW) | (fab & MBP__DIRTY)) == 0u) {
            hit = (f & MBP__HIT) != 0u;
        } else {
            hit = hit_now(w, box, a, b, fab, exact);
        }
        settle(w, pflag, k, a, b, f, hit);
        hits += hit ? 1u : 0u;
    }
    return hits;
}

/* Drops the logged pair of hash slot s, dense index k, that is no longer a candidate: it
 * overlapped (PREV: mbp__sink_end() kept it for its end event), so it ends now. */
static void end_logged(mbp_world *w, uint32_t key, uint32_t s, uint32_t k)
{
    push_event(w, key, k, false);
    mbp__pairs_remove_slot(&w->pairs, s); /* found: no second probe */
}

/* An incremental frame whose log holds every change, with no body removed, instead of
 * drop_gone() and test_pairs(): the log's ended candidates are dropped, then a light pass over
 * the set tests again the pairs with a moved body (about 11 instructions on the M4 for each other
 * pair, against test_pairs()' 26: no flag written, no hit counted). That finds every pair to
 * test: in an incremental update a backend begins and ends only pairs with a moved body
 * (mbp_bp.h). Returns the pairs that overlap: after an update a pair overlaps (HIT) exactly when
 * it did in that update (PREV), so the count changes by the events (recounted when some were
 * lost). Cost: O(c) for c logged changes, plus O(p) light steps. */
MBP__LOOP uint32_t test_moved(mbp_world *w, bool exact)
{
    mbp_pairset *ps = &w->pairs;
    for (uint32_t j = 0; j < ps->log_count && ps->dropped != 0u; j++) {
        uint32_t key = ps->log[j];
        uint32_t s = mbp__pairs_probe(ps, key);
        /* Absent: started and ended in this update, or a second entry of a dropped pair. */
        if (ps->slot[s] != 0u && (ps->flag[ps->slot[s] - 1u] & MBP__CAND) == 0u) {
            end_logged(w, key, s, (uint32_t)ps->slot[s] - 1u);
        }
    }
    const uint8_t *flags = w->flags;
    const mbp_aabb *box = w->box;
    const mbp_pair *pairs = ps->pair;
    uint8_t *pflag = ps->flag;
    const uint32_t n = ps->count;
    if (n != 0u) {
        uint32_t k = 0u;
        do { /* tested at the bottom: one branch a pair less */
            uint32_t a = pairs[k].a, b = pairs[k].b;
            uint32_t fab = (uint32_t)flags[a] | flags[b];
            if ((fab & MBP__DIRTY) != 0u) {
                settle(w, pflag, k, a, b, pflag[k], hit_now(w, box, a, b, fab, exact));
            }
            k++;
        } while (k < n);
    }
    uint32_t hits = ps->hits + w->stats.begun - w->stats.ended;
    if (w->stats.lost_events != 0u) {
        hits = 0u;
        for (uint32_t m = 0; m < n; m++) {
            hits += (uint32_t)(pflag[m] & MBP__HIT) >> 1;
        }
    }
    return hits;
}

/* The frame from the log, instead of drop_gone() and test_pairs(): for a backend whose candidates
 * are exactly the overlapping boxes (mbp__backend_exact()), in a world of plain boxes (no
 * special), every stored pair overlaps, and a pair changes only when the backend starts or ends
 * it: the log lists those. Each logged pair is settled once (a later entry of the same key finds
 * it settled or gone). Returns the pairs that overlap. Cost: O(changes), whatever the pairs. */
static uint32_t apply_log(mbp_world *w)
{
    mbp_pairset *ps = &w->pairs;
    uint32_t hits = ps->hits;
    for (uint32_t j = 0; j < ps->log_count; j++) {
        uint32_t key = ps->log[j];
        uint32_t s = mbp__pairs_probe(ps, key);
        if (ps->slot[s] == 0u) {
            continue; /* started and ended in this update: no event */
        }
        uint32_t k = (uint32_t)ps->slot[s] - 1u;
        uint8_t f = ps->flag[k];
        if ((f & MBP__CAND) == 0u) { /* overlapped (PREV: uncandidate() kept it), ended now */
            end_logged(w, key, s, k);
            hits--;
        } else {
            if ((f & MBP__PREV) == 0u) {
                push_event(w, key, (uint32_t)k, true);
                hits++;
            } /* else: ended and started again in this update, no event */
            ps->flag[k] = (uint8_t)(MBP__CAND | MBP__HIT | MBP__PREV);
        }
    }
    return hits;
}

mbp_status mbp_update(mbp_world *w)
{
    MBP__CHECK_WORLD(w);
    mbp_pairset *ps = &w->pairs;
    /* The overflow of the last frame tells an incremental backend to rebuild; keep it until the
     * backend has run. */
    ps->full_frame = 0u;
    ps->touched = 0u;
    ps->dropped = 0u;
    ps->log_count = 0u;
    w->stats.tests = 0u;
    bool was_whole = w->stats.lost_pairs == 0u; /* the last update stored every pair */
    mbp__sink out = sink_of(w);
    mbp_status st = mbp__backend_update(w, &out);
    w->stats.tests += out.tests;
    uint32_t lost = ps->lost;
    ps->lost = 0u;
    w->stats.begun = w->stats.ended = w->stats.lost_events = 0u;
    w->stats.lost_pairs = lost;

    /* Nothing moved, nothing was removed, the backend changed no candidate and no pair was lost
     * now or in the last update: every pair and flag is as the last update left it, so there is
     * nothing to walk (a static frame costs the backend's update only). */
    bool same = w->restart == 0u && ps->touched == 0u && w->dirty_count == 0u && w->dying_head == 0u && lost == 0u &&
                was_whole;
    /* The log settles the frame when it holds every change, the pairs need no exact test, no
     * body was removed (their pairs end in the walk) and no pair was lost now or before. */
    bool logged = !same && w->restart == 0u && mbp__backend_exact(w) && w->special == 0u && w->dying_head == 0u &&
                  ps->log_count <= (uint32_t)MBP_PAIR_LOG && lost == 0u && was_whole;
    /* An incremental frame whose log holds every change (a full frame overflows it), with no body
     * removed: test_moved() tests the pairs of the moved bodies without drop_gone(). */
    bool moved = ps->log_count <= (uint32_t)MBP_PAIR_LOG && w->restart == 0u && w->dying_head == 0u;
    uint32_t hits;
    if (same) {
        hits = ps->hits;
    } else if (logged) {
        hits = apply_log(w);
    } else if (moved) {
        hits = test_moved(w, mbp__backend_exact(w));
    } else if (ps->full_frame != 0u) {
        hits = drop_gone(w, true); /* one walk drops the pairs not reported and settles the rest */
    } else {
        if (ps->dropped != 0u || w->dying_head != 0u || w->restart != 0u) {
            (void)drop_gone(w, false);
        }
        hits = test_pairs(w, mbp__backend_exact(w));
    }
    ps->hits = hits;
    if (!same) {
        ps->split = (uint8_t)(hits == ps->count ? 1u : 0u);
    }
    w->stats.pairs = hits;
    mbp__sort_pairs(w->events, NULL, w->stats.begun);
#if MBP_PAIR_USER
    mbp__sort_pairs_user(&w->events[MBP_MAX_EVENTS - w->stats.ended], NULL,
                         &w->event_user[MBP_MAX_EVENTS - w->stats.ended], w->stats.ended);
#else
    mbp__sort_pairs(&w->events[MBP_MAX_EVENTS - w->stats.ended], NULL, w->stats.ended);
#endif

    /* The frame is done: moved bodies are clean, removed slots become free. */
    w->restart = 0u;
    for (uint32_t d = 0; d < w->dirty_count; d++) {
        w->flags[w->dirty[d]] &= (uint8_t)~MBP__DIRTY;
    }
    w->dirty_count = 0u;
    while (w->dying_head != 0u) {
        uint16_t i = (uint16_t)(w->dying_head - 1u);
        w->dying_head = w->link[i];
        w->flags[i] = 0u;
        w->link[i] = w->free_head;
        w->free_head = (uint16_t)(i + 1u);
    }

    if (st != MBP_OK) {
        return st;
    }
    if (lost != 0u) {
        return MBP_E_PAIRS_FULL;
    }
    return w->stats.lost_events != 0u ? MBP_E_EVENTS_FULL : MBP_OK;
}

const mbp_stats *mbp_get_stats(const mbp_world *w)
{
    MBP__CHECK_WORLD(w);
    return &w->stats;
}

/* ---- pairs and events ---- */

bool mbp_next_pair(const mbp_world *w, uint32_t *it, mbp_pair *out)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(it != NULL && out != NULL);
    const mbp_pairset *ps = &w->pairs;
    for (uint32_t k = *it; k < ps->count; k++) {
        if (ps->flag[k] & MBP__HIT) {
            *out = ps->pair[k];
            *it = k + 1u;
            return true;
        }
    }
    *it = ps->count;
    return false;
}

uint32_t mbp_pair_count(const mbp_world *w)
{
    MBP__CHECK_WORLD(w);
    return w->pairs.hits;
}

void mbp_sort_pairs(mbp_world *w)
{
    MBP__CHECK_WORLD(w);
    mbp__pairs_sort(&w->pairs);
}

const mbp_pair *mbp_pairs(mbp_world *w, uint32_t *count)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(count != NULL);
    mbp_pairset *ps = &w->pairs;
    if (!ps->split) {
        mbp__pairs_split(ps);
    }
    *count = ps->hits;
    return ps->pair;
}

const mbp_pair *mbp_begun(const mbp_world *w, uint32_t *count)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(count != NULL);
    *count = w->stats.begun;
    return w->events;
}

const mbp_pair *mbp_ended(const mbp_world *w, uint32_t *count)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(count != NULL);
    *count = w->stats.ended;
    return &w->events[MBP_MAX_EVENTS - w->stats.ended];
}

#if MBP_PAIR_USER
uint32_t *mbp_pair_users(mbp_world *w, uint32_t *count)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(count != NULL);
    mbp_pairset *ps = &w->pairs;
    if (!ps->split) {
        mbp__pairs_split(ps); /* as mbp_pairs() does: the same order, whichever comes first */
    }
    *count = ps->hits;
    return ps->user;
}

const uint32_t *mbp_ended_users(const mbp_world *w, uint32_t *count)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(count != NULL);
    *count = w->stats.ended;
    return &w->event_user[MBP_MAX_EVENTS - w->stats.ended];
}
#endif

const char *mbp_status_name(mbp_status s)
{
    switch (s) {
    case MBP_OK:
        return "MBP_OK";
    case MBP_E_BADBOX:
        return "MBP_E_BADBOX";
    case MBP_E_RANGE:
        return "MBP_E_RANGE";
    case MBP_E_FULL:
        return "MBP_E_FULL";
    case MBP_E_STALE:
        return "MBP_E_STALE";
    case MBP_E_PAIRS_FULL:
        return "MBP_E_PAIRS_FULL";
    case MBP_E_EVENTS_FULL:
        return "MBP_E_EVENTS_FULL";
    case MBP_E_BACKEND:
        return "MBP_E_BACKEND";
    case MBP_E_CONFIG:
        return "MBP_E_CONFIG";
    case MBP_E_PARAM:
        return "MBP_E_PARAM";
    case MBP_E_NOROOM:
        return "MBP_E_NOROOM";
    case MBP_E_TRUNCATED:
        return "MBP_E_TRUNCATED";
    default:
        return "MBP_E_?";
    }
}

const char *mbp_backend_name(mbp_backend b)
{
    switch (b) {
    case MBP_BRUTE:
        return "brute";
    case MBP_SWEEP:
        return "sweep";
    case MBP_SAP:
        return "sap";
    case MBP_GRID:
        return "grid";
    case MBP_HASH:
        return "hash";
    case MBP_HGRID:
        return "hgrid";
    case MBP_TREE:
        return "tree";
    case MBP_QUADTREE:
        return "quadtree";
    default:
        return "?";
    }
}
