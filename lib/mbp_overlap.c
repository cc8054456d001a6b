/* SPDX-License-Identifier: MIT */
/* mbp_overlap.c: the test between two volumes of any kind, and between two bodies from the plain
 * data of their volumes (mbp__volumes, mbp_bp.h).
 *
 * It sits with the shapes, under the pair set: a full frame's sink and a backend counting the
 * pairs it lost test pairs exactly here, with no call into the world. A body's volume is found
 * from the arrays the world lends (flags, boxes, spheres, the shape pool): a shape body's in its
 * pool entry, a fast body's own box there too, while the fast body pairs as its bound of the step
 * (its box in the boxes array).
 */
#include "mbp_shape.h"

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


uint8_t mbp__volume_of(const mbp__volumes *vol, uint16_t i, bool own, const void **p)
{
    uint8_t f = vol->flags[i];
#if MBP__POOL
    if (!own && (f & MBP__FAST) != 0u) {
        *p = &vol->box[i]; /* a fast body pairs as its bound */
        return MBP_SHAPE_BOX;
    }
    if (vol->shape_of[i] != 0u) {
        const mbp_shape_slot *e = &vol->shapes[vol->shape_of[i] - 1u];
        *p = &e->u;
        return e->kind;
    }
#else
    (void)own;
#endif
#if MBP_WITH_SPHERES
    if ((f & MBP__SPHERE) != 0u) {
        *p = &vol->sphere[i];
        return MBP_SHAPE_SPHERE;
    }
#else
    (void)f;
#endif
    *p = &vol->box[i];
    return MBP_SHAPE_BOX;
}

#if MBP__POOL
bool mbp__volumes_exact(const mbp__volumes *vol, uint16_t a, uint16_t b)
{
    const void *pa, *pb;
    uint8_t ka = mbp__volume_of(vol, a, false, &pa);
    uint8_t kb = mbp__volume_of(vol, b, false, &pb);
    return mbp__overlap(ka, pa, kb, pb);
}
#endif
