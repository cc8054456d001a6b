/* SPDX-License-Identifier: MIT */
/* mbp_shift.c: moving the world's origin (mbp_shift_origin).
 *
 * Every volume is translated by -offset, the parameters placed in space (the grid's and the
 * quadtree's origins, the quantized SAP's box) with it, and the backend is built anew from the
 * translated boxes. The pair set is kept: the next mbp_update() has the backend report its
 * candidates again and tests every pair, so a pair that still overlaps gives no event.
 *
 * Atomic: the translated volumes are checked first (each must be one mbp_add_* would accept),
 * and the new structure is built before anything else changes; when it does not fit (a grid's
 * entries, a tree's pool: MBP_E_NOROOM), the structure is built again from the untouched
 * volumes, which fit since they did before. Cost: O(n) plus the backend's build, and the next
 * update costs a full frame.
 */
#include "mbp_internal.h"

static void move_point(mbp_scalar p[MBP_DIM], const mbp_scalar d[MBP_DIM])
{
    for (int k = 0; k < MBP_DIM; k++) {
        p[k] -= d[k]; /* |p|, |d| <= MBP_RANGE: no overflow, in fixed point too */
    }
}

/* s translated by -d; false when the result is not a valid shape (out of range). */
static bool move_shape(mbp_shape *s, const mbp_scalar d[MBP_DIM])
{
    switch (s->kind) {
    case MBP_SHAPE_SPHERE:
        move_point(s->u.sphere.c, d);
        break;
#if MBP_WITH_OBB
    case MBP_SHAPE_OBB:
        move_point(s->u.obb.c, d);
        break;
#endif
#if MBP_WITH_KDOP
    case MBP_SHAPE_KDOP:
        mbp__kdop_translate(&s->u.kdop, d);
        break;
#endif
#if MBP_WITH_CAPSULE
    case MBP_SHAPE_CAPSULE:
        move_point(s->u.capsule.a, d);
        move_point(s->u.capsule.b, d);
        break;
#endif
#if MBP_WITH_RSS
    case MBP_SHAPE_RSS:
        move_point(s->u.rss.c, d);
        break;
#endif
    default:
        move_point(s->u.box.min, d);
        move_point(s->u.box.max, d);
        break;
    }
    return mbp_shape_check(s) == MBP_OK;
}

/* Body i translated by -d: its volume in *s and the box the backend gets in *box (a fast body's
 * bound of the step, translated, and holding the translated volume). False when out of range. */
static bool moved_body(mbp_world *w, uint16_t i, const mbp_scalar d[MBP_DIM], mbp_shape *s,
                       mbp_aabb *box)
{
    mbp_aabb bound = w->box[i]; /* read first: box may be w->box[i] (rebuild()) */
    mbp__own_shape(w, i, s);
    if (!move_shape(s, d)) {
        return false;
    }
    mbp_shape_aabb(s, box);
    if ((w->flags[i] & MBP__FAST) != 0u) {
        move_point(bound.min, d);
        move_point(bound.max, d);
        mbp_aabb_union(&bound, box, box);
    }
    return mbp__box_good(box);
}

/* Writes body i's translated volume and box. */
static void store_body(mbp_world *w, uint16_t i, const mbp_shape *s, const mbp_aabb *box)
{
    (void)s; /* a configuration without shapes or spheres keeps only the box */
#if MBP__POOL
    if (w->shape_of[i] != 0u) {
        mbp__slot_store(&w->shapes[w->shape_of[i] - 1u], s);
    }
#endif
#if MBP_WITH_SPHERES
    if (s->kind == MBP_SHAPE_SPHERE) {
        w->sphere[i] = s->u.sphere;
    }
#endif
    w->box[i] = *box;
}

/* A parameter placed in space, translated and kept within the range. */
static mbp_scalar moved_param(mbp_scalar v, mbp_scalar d)
{
    mbp_scalar r = v - d;
    return r < -MBP_RANGE ? -MBP_RANGE : r > MBP_RANGE ? MBP_RANGE : r;
}

static void move_params(mbp_params *p, const mbp_scalar d[MBP_DIM])
{
    for (int k = 0; k < MBP_DIM; k++) {
        p->grid_origin[k] = moved_param(p->grid_origin[k], d[k]);
#if MBP_WITH_QUADTREE
        p->quadtree_origin[k] = moved_param(p->quadtree_origin[k], d[k]);
#endif
#if MBP_WITH_SAP && MBP_SAP_QUANTIZED
        p->sap_world.min[k] = moved_param(p->sap_world.min[k], d[k]);
        p->sap_world.max[k] = moved_param(p->sap_world.max[k], d[k]);
#endif
    }
}

/* The backend built anew from the live bodies: box(i) for each, w->box otherwise. */
static mbp_status rebuild(mbp_world *w, const mbp_scalar *d)
{
    mbp_status st = mbp__backend_init(w);
    for (uint16_t i = 0; st == MBP_OK && i < w->high; i++) {
        if (!mbp__active(w, i)) {
            continue;
        }
        mbp_aabb keep;
        keep = w->box[i];
        if (d != NULL) {
            mbp_shape s;
            (void)moved_body(w, i, d, &s, &w->box[i]); /* checked before */
        }
        st = mbp__backend_add(w, i); /* with the box it would have */
        w->box[i] = keep;
    }
    return st;
}

mbp_status mbp_shift_origin(mbp_world *w, const mbp_scalar offset[MBP_DIM])
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(offset != NULL);
    for (int k = 0; k < MBP_DIM; k++) {
        mbp_scalar o = offset[k];
#if MBP_SCALAR == MBP_FLOAT
        if (!(o - o == 0.0f)) { /* NaN or infinite */
            return MBP_E_BADBOX;
        }
#endif
        if (o < -MBP_RANGE || o > MBP_RANGE) {
            return MBP_E_RANGE;
        }
    }
    for (uint16_t i = 0; i < w->high; i++) {
        mbp_shape s;
        mbp_aabb box;
        if (mbp__active(w, i) && !moved_body(w, i, offset, &s, &box)) {
            return MBP_E_RANGE;
        }
    }
    mbp_params old = w->params;
    move_params(&w->params, offset);
    mbp_status st = rebuild(w, offset);
    if (st != MBP_OK) {
        w->params = old;
        mbp_status again = rebuild(w, NULL); /* what stood before: it fits */
        MBP__ASSERT(again == MBP_OK);
        (void)again;
    } else {
        for (uint16_t i = 0; i < w->high; i++) {
            if (mbp__active(w, i)) {
                mbp_shape s;
                mbp_aabb box;
                (void)moved_body(w, i, offset, &s, &box);
                store_body(w, i, &s, &box);
            }
        }
    }
    /* Either way the structure is new: its candidates are reported anew at the next update,
     * which tests every pair of a body (pairs that still overlap give no event). */
    mbp__pairs_restart(w);
    return st;
}
