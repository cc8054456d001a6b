/* SPDX-License-Identifier: MIT */
/* mbp_shape.c: shapes of any kind (check, box, the pairwise test's dispatch), shape bodies and
 * their pool, and fast bodies.
 *
 * Storage: a body's box is in w->box and a sphere body's sphere in w->sphere, as before. An
 * oriented box, k-DOP or capsule lives in one entry of the world's shape pool (MBP_MAX_SHAPES
 * entries, each the size of the largest shape compiled in), named by w->shape_of[i]; so a world
 * of boxes pays 2 bytes per body for shapes, and nothing when they are all compiled out. A fast
 * box body keeps its own box in a pool entry too (its w->box is its bound of the step). Entries
 * are taken when a body becomes such a body and given back when it stops being one or is
 * removed; a full pool makes that add or move fail with MBP_E_FULL, changing nothing.
 *
 * The exact test of a pair: the core (mbp__exact) tests filters and boxes, then comes here when
 * either body is a shape or fast. A fast body counts as its bound (a box).
 */
#include "mbp_shape.h"

/* ---- kinds ---- */

mbp_status mbp_shape_check(const mbp_shape *s)
{
    MBP__ASSERT(s != NULL);
    switch (s->kind) {
    case MBP_SHAPE_BOX:
        return mbp_aabb_check(&s->u.box);
    case MBP_SHAPE_SPHERE:
        return mbp_sphere_check(&s->u.sphere);
#if MBP_WITH_OBB
    case MBP_SHAPE_OBB:
        return mbp__obb_check(&s->u.obb);
#endif
#if MBP_WITH_KDOP
    case MBP_SHAPE_KDOP:
        return mbp__kdop_check(&s->u.kdop);
#endif
#if MBP_WITH_CAPSULE
    case MBP_SHAPE_CAPSULE:
        return mbp__capsule_check(&s->u.capsule);
#endif
#if MBP_WITH_RSS
    case MBP_SHAPE_RSS:
        return mbp__rss_check(&s->u.rss);
#endif
    default: /* unknown, or not compiled in */
        return MBP_E_PARAM;
    }
}

static void kind_aabb(uint8_t kind, const void *p, mbp_aabb *out)
{
    switch (kind) {
#if MBP_WITH_OBB
    case MBP_SHAPE_OBB:
        mbp__obb_aabb((const mbp_obb *)p, out);
        break;
#endif
#if MBP_WITH_KDOP
    case MBP_SHAPE_KDOP:
        mbp__kdop_aabb((const mbp_kdop *)p, out);
        break;
#endif
#if MBP_WITH_CAPSULE
    case MBP_SHAPE_CAPSULE:
        mbp__capsule_aabb((const mbp_capsule *)p, out);
        break;
#endif
#if MBP_WITH_RSS
    case MBP_SHAPE_RSS:
        mbp__rss_aabb((const mbp_rss *)p, out);
        break;
#endif
    case MBP_SHAPE_SPHERE:
        mbp_sphere_aabb((const mbp_sphere *)p, out);
        break;
    default:
        *out = *(const mbp_aabb *)p;
        break;
    }
}

void mbp_shape_aabb(const mbp_shape *s, mbp_aabb *out)
{
    MBP__ASSERT(s != NULL && out != NULL);
    kind_aabb(s->kind, &s->u, out);
}

/* ---- the pairwise test ---- */

#if MBP__SHAPES
static void prep_of(uint8_t kind, const void *p, mbp__prep *out)
{
    switch (kind) {
    case MBP_SHAPE_SPHERE: {
        const mbp_sphere *s = (const mbp_sphere *)p;
        mbp__prep_seg(out, s->c, s->c, s->r);
        break;
    }
#if MBP_WITH_OBB
    case MBP_SHAPE_OBB:
        mbp__prep_obb(out, (const mbp_obb *)p);
        break;
#endif
#if MBP_WITH_KDOP
    case MBP_SHAPE_KDOP:
        mbp__prep_kdop(out, (const mbp_kdop *)p);
        break;
#endif
#if MBP_WITH_CAPSULE
    case MBP_SHAPE_CAPSULE: {
        const mbp_capsule *c = (const mbp_capsule *)p;
        mbp__prep_seg(out, c->a, c->b, c->r);
        break;
    }
#endif
    default:
        mbp__prep_box(out, (const mbp_aabb *)p);
        break;
    }
}
#endif

/* Words (scalars and rotation entries, all 32 bits) in a shape of this kind. */
static uint32_t words_of(uint8_t kind)
{
    switch (kind) {
    case MBP_SHAPE_SPHERE:
        return MBP_DIM + 1;
    case MBP_SHAPE_OBB:
        return 2 * MBP_DIM + MBP_DIM * MBP_DIM;
    case MBP_SHAPE_KDOP:
        return 2 * MBP_KDOP_AXES;
    case MBP_SHAPE_CAPSULE:
        return 2 * MBP_DIM + 1;
    case MBP_SHAPE_RSS:
        return MBP_DIM + 2 + MBP_DIM * MBP_DIM + 1;
    default:
        return 2 * MBP_DIM;
    }
}

/* a after b in the order of their values, word by word (two shapes of one kind). */
static bool after(uint8_t kind, const void *a, const void *b)
{
    const mbp_scalar *x = (const mbp_scalar *)a, *y = (const mbp_scalar *)b;
    for (uint32_t i = 0; i < words_of(kind); i++) {
        if (x[i] != y[i]) {
            return x[i] > y[i];
        }
    }
    return false;
}

bool mbp__overlap(uint8_t ka, const void *a, uint8_t kb, const void *b)
{
    /* Order the shapes (by kind: box, sphere, oriented box, k-DOP, capsule, RSS; then by value), so
     * that the result never depends on the order of the arguments: rounding in an axis could
     * otherwise make (a, b) and (b, a) differ, and backends report pairs in either order. */
    if (ka > kb || (ka == kb && after(ka, a, b))) {
        uint8_t k = ka;
        const void *p = a;
        ka = kb;
        a = b;
        kb = k;
        b = p;
    }
    if (kb == MBP_SHAPE_BOX) {
        return mbp_aabb_overlap((const mbp_aabb *)a, (const mbp_aabb *)b);
    }
#if MBP_WITH_RSS
    if (kb == MBP_SHAPE_RSS) { /* with any kind */
        if (ka == MBP_SHAPE_RSS) {
            return mbp__rss_rss((const mbp_rss *)a, (const mbp_rss *)b);
        }
        mbp__prep px;
        prep_of(ka, a, &px);
        return mbp__rss_vs((const mbp_rss *)b, &px);
    }
#endif
    /* kb is a valid kind, compiled in: each test below but the last compiled in needs its "if";
     * the last is reached only by its own kind, so it has none (and no line of this function is
     * dead in any build). */
#if MBP__SHAPES
    if (kb == MBP_SHAPE_SPHERE)
#endif
    {
        return ka == MBP_SHAPE_SPHERE
                   ? mbp_sphere_overlap((const mbp_sphere *)a, (const mbp_sphere *)b)
                   : mbp_sphere_aabb_overlap((const mbp_sphere *)b, (const mbp_aabb *)a);
    }
#if MBP__SHAPES
    mbp__prep pa, pb;
    prep_of(ka, a, &pa);
    prep_of(kb, b, &pb);
#if MBP_WITH_OBB && (MBP_WITH_KDOP || MBP_WITH_CAPSULE)
    if (kb == MBP_SHAPE_OBB) /* with a box, a sphere or an oriented box */
#endif
#if MBP_WITH_OBB
    {
        return ka == MBP_SHAPE_SPHERE ? mbp__seg_frame(&pa, &pb) : mbp__frame_frame(&pa, &pb);
    }
#endif
#if MBP_WITH_KDOP && MBP_WITH_CAPSULE
    if (kb == MBP_SHAPE_KDOP) /* with a box, a sphere, an oriented box or a k-DOP */
#endif
#if MBP_WITH_KDOP
    {
        return mbp__kdop_vs(&pb, &pa);
    }
#endif
#if MBP_WITH_CAPSULE
    switch (ka) { /* kb is a capsule */
#if MBP_WITH_KDOP
    case MBP_SHAPE_KDOP:
        return mbp__kdop_vs(&pa, &pb);
#endif
    case MBP_SHAPE_SPHERE:
    case MBP_SHAPE_CAPSULE:
        return mbp__seg_seg(&pa, &pb);
    default: /* a box or an oriented box */
        return mbp__seg_frame(&pb, &pa);
    }
#endif
#endif
}

bool mbp_shape_overlap(const mbp_shape *a, const mbp_shape *b)
{
    MBP__ASSERT(a != NULL && b != NULL);
    return mbp__overlap(a->kind, &a->u, b->kind, &b->u);
}

/* ---- shape bodies ---- */

/* The box of a shape in its stored form: a stored k-DOP is tight (mbp_kdop_tighten), so its box
 * is its first MBP_DIM bounds, which saves tightening it again (most of a 3D k-DOP's box). */
static void stored_aabb(uint8_t kind, const void *p, mbp_aabb *out)
{
#if MBP_WITH_KDOP
    if (kind == MBP_SHAPE_KDOP) {
        const mbp_kdop *k = (const mbp_kdop *)p;
        for (int c = 0; c < MBP_DIM; c++) {
            out->min[c] = k->min[c];
            out->max[c] = k->max[c];
        }
        return;
    }
#endif
    kind_aabb(kind, p, out);
}

/* The stored form of a valid shape, a k-DOP tightened, and its box. */
static void stored_form(const mbp_shape *s, mbp_shape *t, mbp_aabb *box)
{
    *t = *s;
#if MBP_WITH_KDOP
    if (t->kind == MBP_SHAPE_KDOP) {
        (void)mbp_kdop_tighten(&t->u.kdop);
    }
#endif
    stored_aabb(t->kind, &t->u, box);
}

mbp_status mbp_add_shape(mbp_world *w, const mbp_shape *s, uint32_t user, mbp_body *out)
{
    MBP__ASSERT(s != NULL);
    if (s->kind == MBP_SHAPE_BOX) {
        return mbp_add_box(w, &s->u.box, user, out);
    }
    if (s->kind == MBP_SHAPE_SPHERE) {
#if MBP_WITH_SPHERES
        return mbp_add_sphere(w, &s->u.sphere, user, out);
#else
        return MBP_E_PARAM;
#endif
    }
    mbp_status st = mbp_shape_check(s);
    if (st != MBP_OK) {
        return st;
    }
    mbp_shape t;
    mbp_aabb box;
    stored_form(s, &t, &box);
    return mbp__add_body(w, &box, NULL, &t, user, out);
}

mbp_status mbp_move_shape(mbp_world *w, mbp_body h, const mbp_shape *s)
{
    MBP__ASSERT(s != NULL);
    if (s->kind == MBP_SHAPE_BOX) {
        return mbp_move_box(w, h, &s->u.box);
    }
    if (s->kind == MBP_SHAPE_SPHERE) {
#if MBP_WITH_SPHERES
        return mbp_move_sphere(w, h, &s->u.sphere);
#else
        return MBP_E_PARAM;
#endif
    }
    mbp_status st = mbp_shape_check(s);
    if (st != MBP_OK) {
        return st;
    }
    mbp_shape t;
    mbp_aabb box;
    stored_form(s, &t, &box);
    return mbp__move_body(w, h, &box, NULL, &t);
}

#if MBP__POOL

/* ---- the pool ---- */

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

/* The kind and data of body i's own volume (a fast body's too, not its bound). */
static uint8_t own_volume(const mbp_world *w, uint16_t i, const void **p)
{
    if (w->shape_of[i] != 0u) {
        const mbp_shape_slot *e = &w->shapes[w->shape_of[i] - 1u];
        *p = &e->u;
        return e->kind;
    }
#if MBP_WITH_SPHERES
    if (w->flags[i] & MBP__SPHERE) {
        *p = &w->sphere[i];
        return MBP_SHAPE_SPHERE;
    }
#endif
    *p = &w->box[i];
    return MBP_SHAPE_BOX;
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
        const void *p;
        uint8_t k = own_volume(w, i, &p);
        stored_aabb(k, p, &start);
    }
    mbp_aabb_union(&start, box, bound);
    return MBP_OK;
}

void mbp__pool_commit(mbp_world *w, uint16_t i, const mbp_aabb *box, const mbp_sphere *s,
                      const mbp_shape *shape)
{
    if (shape != NULL) {
        mbp_shape_slot *e = entry(w, i);
        e->kind = shape->kind; /* an oriented box, k-DOP, capsule or RSS */
#if MBP_WITH_OBB
        if (shape->kind == MBP_SHAPE_OBB) {
            e->u.obb = shape->u.obb;
        }
#endif
#if MBP_WITH_KDOP
        if (shape->kind == MBP_SHAPE_KDOP) {
            e->u.kdop = shape->u.kdop;
        }
#endif
#if MBP_WITH_CAPSULE
        if (shape->kind == MBP_SHAPE_CAPSULE) {
            e->u.capsule = shape->u.capsule;
        }
#endif
#if MBP_WITH_RSS
        if (shape->kind == MBP_SHAPE_RSS) {
            e->u.rss = shape->u.rss;
        }
#endif
        w->flags[i] |= MBP__SHAPE;
        return;
    }
    w->flags[i] &= (uint8_t)~MBP__SHAPE;
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
    w->flags[i] &= (uint8_t)~(MBP__SHAPE | MBP__FAST);
}

/* ---- the world's exact test and queries ---- */

/* The volume body i pairs with: its bound (a box) when fast, else its own. */
static uint8_t pair_volume(const mbp_world *w, uint16_t i, const void **p)
{
    if (w->flags[i] & MBP__FAST) {
        *p = &w->box[i];
        return MBP_SHAPE_BOX;
    }
    return own_volume(w, i, p);
}

bool mbp__shape_exact(const mbp_world *w, uint16_t a, uint16_t b)
{
    const void *pa, *pb;
    uint8_t ka = pair_volume(w, a, &pa);
    uint8_t kb = pair_volume(w, b, &pb);
    return mbp__overlap(ka, pa, kb, pb);
}

bool mbp__shape_box(const mbp_world *w, uint16_t i, const mbp_aabb *box)
{
    const void *p;
    uint8_t k = pair_volume(w, i, &p);
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
    const void *p;
    t.kind = own_volume(w, i, &p);
    switch (t.kind) {
#if MBP_WITH_OBB
    case MBP_SHAPE_OBB:
        t.u.obb = *(const mbp_obb *)p;
        break;
#endif
#if MBP_WITH_KDOP
    case MBP_SHAPE_KDOP:
        t.u.kdop = *(const mbp_kdop *)p;
        break;
#endif
#if MBP_WITH_CAPSULE
    case MBP_SHAPE_CAPSULE:
        t.u.capsule = *(const mbp_capsule *)p;
        break;
#endif
#if MBP_WITH_RSS
    case MBP_SHAPE_RSS:
        t.u.rss = *(const mbp_rss *)p;
        break;
#endif
    case MBP_SHAPE_SPHERE:
        t.u.sphere = *(const mbp_sphere *)p;
        break;
    default:
        t.u.box = *(const mbp_aabb *)p;
        break;
    }
    mbp_aabb box;
    stored_aabb(t.kind, &t.u, &box);
    w->flags[i] = (uint8_t)(fast ? (f | MBP__FAST) : (f & ~MBP__FAST));
    mbp_status st;
    if (t.kind == MBP_SHAPE_BOX) {
        st = mbp__move_body(w, h, &box, NULL, NULL);
    } else if (t.kind == MBP_SHAPE_SPHERE) {
        st = mbp__move_body(w, h, &box, &t.u.sphere, NULL);
    } else {
        st = mbp__move_body(w, h, &box, NULL, &t);
    }
    if (st != MBP_OK) {
        w->flags[i] = f;
    }
    return st;
}
#endif
