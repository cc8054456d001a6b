/* SPDX-License-Identifier: MIT */
/* mbp_shape_body.c: shape bodies (mbp_add_shape(), mbp_move_shape()), their pool, and fast
 * bodies: the world's side of shapes (mbp_shape.c has the shapes themselves).
 *
 * Storage: a body's box is in w->box and a sphere body's sphere in w->sphere, as before. An
 * oriented box, k-DOP or capsule lives in one entry of the world's shape pool (MBP_MAX_SHAPES
 * entries, each the size of the largest shape compiled in), named by w->shape_of[i]; so a world
 * of boxes pays 2 bytes per body for shapes, and nothing when they are all compiled out. A fast
 * box body keeps its own box in a pool entry too (its w->box is its bound of the step). Entries
 * are taken when a body becomes such a body and given back when it stops being one or is
 * removed; a full pool makes that add or move fail with MBP_E_FULL, changing nothing.
 *
 * The exact test of a pair (mbp__volumes_meet(), mbp_overlap.c) reads the pool as plain data: a
 * fast body counts as its bound (a box).
 */
#include "mbp_shape.h"

/* ---- shape bodies ---- */

/* The stored form of shape s (any kind but a box or, when compiled in, a sphere: those bodies
 * keep no pool entry), a k-DOP tightened, and its box: MBP_OK, or mbp_shape_check()'s error,
 * MBP_E_PARAM for a sphere without MBP_WITH_SPHERES. */
static mbp_status stored_form(const mbp_shape *s, mbp_shape *t, mbp_aabb *box)
{
#if !MBP_WITH_SPHERES
    if (s->kind == MBP_SHAPE_SPHERE) {
        return MBP_E_PARAM;
    }
#endif
    mbp_status st = mbp_shape_check(s);
    if (st == MBP_OK) {
        *t = *s;
#if MBP_WITH_KDOP
        if (t->kind == MBP_SHAPE_KDOP) {
            (void)mbp_kdop_tighten(&t->u.kdop);
        }
#endif
        mbp__stored_aabb(t->kind, &t->u, box);
    }
    return st;
}

mbp_status mbp_add_shape(mbp_world *w, const mbp_shape *s, uint32_t user, mbp_body *out)
{
    MBP__ASSERT(s != NULL);
    if (s->kind == MBP_SHAPE_BOX) {
        return mbp_add_box(w, &s->u.box, user, out);
    }
#if MBP_WITH_SPHERES
    if (s->kind == MBP_SHAPE_SPHERE) {
        return mbp_add_sphere(w, &s->u.sphere, user, out);
    }
#endif
    mbp_shape t;
    mbp_aabb box;
    mbp_status st = stored_form(s, &t, &box);
    return st != MBP_OK ? st : mbp__add_body(w, &box, NULL, &t, user, out);
}

mbp_status mbp_move_shape(mbp_world *w, mbp_body h, const mbp_shape *s)
{
    MBP__ASSERT(s != NULL);
    if (s->kind == MBP_SHAPE_BOX) {
        return mbp_move_box(w, h, &s->u.box);
    }
#if MBP_WITH_SPHERES
    if (s->kind == MBP_SHAPE_SPHERE) {
        return mbp_move_sphere(w, h, &s->u.sphere);
    }
#endif
    mbp_shape t;
    mbp_aabb box;
    mbp_status st = stored_form(s, &t, &box);
    return st != MBP_OK ? st : mbp__move_body(w, h, &box, NULL, &t);
}

/* Copies a volume of this kind from src to dst: the data of a shape's union (mbp_shape.u) or of
 * a pool entry's (mbp_shape_slot.u), each member at the union's start. */
static void copy_volume(uint8_t kind, void *dst, const void *src)
{
    switch (kind) {
#if MBP_WITH_OBB
    case MBP_SHAPE_OBB:
        *(mbp_obb *)dst = *(const mbp_obb *)src;
        break;
#endif
#if MBP_WITH_KDOP
    case MBP_SHAPE_KDOP:
        *(mbp_kdop *)dst = *(const mbp_kdop *)src;
        break;
#endif
#if MBP_WITH_CAPSULE
    case MBP_SHAPE_CAPSULE:
        *(mbp_capsule *)dst = *(const mbp_capsule *)src;
        break;
#endif
#if MBP_WITH_RSS
    case MBP_SHAPE_RSS:
        *(mbp_rss *)dst = *(const mbp_rss *)src;
        break;
#endif
    case MBP_SHAPE_SPHERE: /* never into a pool entry */
        *(mbp_sphere *)dst = *(const mbp_sphere *)src;
        break;
    default:
        *(mbp_aabb *)dst = *(const mbp_aabb *)src;
        break;
    }
}

void mbp__own_shape(const mbp_world *w, uint16_t i, mbp_shape *out)
{
    mbp__volumes vol = mbp__world_volumes(w);
    const void *p;
    out->kind = mbp__volume_of(&vol, i, true, &p);
    copy_volume(out->kind, &out->u, p);
}

#if MBP__POOL

/* ---- the pool ---- */

void mbp__slot_store(mbp_shape_slot *e, const mbp_shape *s)
{
    MBP__ASSERT(s->kind != MBP_SHAPE_SPHERE); /* a sphere lives in w->sphere */
    e->kind = s->kind;
    copy_volume(s->kind, &e->u, &s->u);
}


void mbp__pool_init(mbp_world *w)
{
    for (uint32_t i = 0; i < MBP_MAX_BODIES; i++) {
        w->shape_of[i] = 0u;
    }
    for (uint32_t e = 0; e < MBP_MAX_SHAPES; e++) {
        w->shapes[e].kind = 0u;
        w->shapes[e].u.next = (uint16_t)(e + 2u <= MBP_MAX_SHAPES ? e + 2u : 0u);
    }
    w->shape_free = 1u;
}

static mbp_shape_slot *entry(mbp_world *w, uint16_t i)
{
    if (w->shape_of[i] == 0u) {
        uint16_t e = (uint16_t)(w->shape_free - 1u); /* the caller made sure there is one */
        w->shape_free = w->shapes[e].u.next;
        w->shape_of[i] = (uint16_t)(e + 1u);
    }
    return &w->shapes[w->shape_of[i] - 1u];
}

static void free_entry(mbp_world *w, uint16_t i)
{
    uint16_t e1 = w->shape_of[i];
    if (e1 != 0u) {
        w->shapes[e1 - 1u].kind = 0u;
        w->shapes[e1 - 1u].u.next = w->shape_free;
        w->shape_free = e1;
        w->shape_of[i] = 0u;
    }
}

mbp_status mbp__pool_prepare(const mbp_world *w, uint16_t i, const mbp_aabb *box,
                             const mbp_sphere *s, const mbp_shape *shape, mbp_aabb *bound)
{
    bool fast = (w->flags[i] & MBP__FAST) != 0u;
    bool need = shape != NULL || (fast && s == NULL);
    if (need && w->shape_of[i] == 0u && w->shape_free == 0u) {
        return MBP_E_FULL;
    }
    if (!fast) {
        *bound = *box;
        return MBP_OK;
    }
    /* The step's bound: from the box at the last update (or the bound so far, when it has moved
     * since), to this one. */
    mbp_aabb start;
    if (w->flags[i] & MBP__DIRTY) {
        start = w->box[i];
    } else {
        mbp_shape own;
        mbp__own_shape(w, i, &own);
        mbp__stored_aabb(own.kind, &own.u, &start);
    }
    mbp_aabb_union(&start, box, bound);
    return MBP_OK;
}

void mbp__pool_commit(mbp_world *w, uint16_t i, const mbp_aabb *box, const mbp_sphere *s,
                      const mbp_shape *shape)
{
    if (shape != NULL) {
        mbp__slot_store(entry(w, i), shape); /* an oriented box, k-DOP, capsule or RSS */
        mbp__set_flags(w, i, w->flags[i] | MBP__SHAPE);
        return;
    }
    mbp__set_flags(w, i, w->flags[i] & ~MBP__SHAPE);
    if ((w->flags[i] & MBP__FAST) != 0u && s == NULL) {
        mbp_shape_slot *e = entry(w, i); /* a fast box body: its own box */
        e->kind = MBP_SHAPE_BOX;
        e->u.box = *box;
    } else {
        free_entry(w, i);
    }
}

void mbp__pool_release(mbp_world *w, uint16_t i)
{
    free_entry(w, i);
    mbp__set_flags(w, i, w->flags[i] & ~(MBP__SHAPE | MBP__FAST));
}

/* ---- the world's exact test and queries ---- */

/* Queries: body i's volume against box (a fast body's bound of the step). */
bool mbp__shape_box(const mbp_world *w, uint16_t i, const mbp_aabb *box)
{
    mbp__volumes vol = mbp__world_volumes(w);
    const void *p;
    uint8_t k = mbp__volume_of(&vol, i, false, &p);
    return mbp__overlap(k, p, MBP_SHAPE_BOX, box);
}

#endif /* MBP__POOL */

/* ---- fast bodies ---- */

#if MBP_WITH_FAST
/* Turning fast on or off changes how the body's pairs are tested, so it is done as a move to
 * its own volume: the body is re-tested at the next update, takes or gives back a pool entry (a
 * box body), and its box becomes its bound (from this box on) or its own again. */
mbp_status mbp_set_fast(mbp_world *w, mbp_body h, bool fast)
{
    MBP__CHECK_WORLD(w);
    if (!mbp__handle_ok(w, h)) {
        return MBP_E_STALE;
    }
    uint16_t i = (uint16_t)(h.slot1 - 1u);
    uint8_t f = w->flags[i];
    if (((f & MBP__FAST) != 0u) == fast) {
        return MBP_OK;
    }
    mbp_shape t;
    mbp__own_shape(w, i, &t);
    mbp_aabb box;
    mbp__stored_aabb(t.kind, &t.u, &box);
    mbp__set_flags(w, i, fast ? (f | MBP__FAST) : (f & ~MBP__FAST));
    mbp_status st;
    if (t.kind == MBP_SHAPE_BOX) {
        st = mbp__move_body(w, h, &box, NULL, NULL);
    } else if (t.kind == MBP_SHAPE_SPHERE) {
        st = mbp__move_body(w, h, &box, &t.u.sphere, NULL);
    } else {
        st = mbp__move_body(w, h, &box, NULL, &t);
    }
    if (st != MBP_OK) {
        mbp__set_flags(w, i, f);
    }
    return st;
}
#endif
