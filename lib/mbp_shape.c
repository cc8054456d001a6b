/* SPDX-License-Identifier: MIT */
/* mbp_shape.c: shapes of any kind as plain values: the check, the box, the pairwise test's entry
 * point (the tests themselves are in mbp_overlap.c). Nothing here knows the world: shape bodies,
 * their pool and fast bodies are in mbp_shape_body.c.
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

bool mbp_shape_overlap(const mbp_shape *a, const mbp_shape *b)
{
    MBP__ASSERT(a != NULL && b != NULL);
    return mbp__overlap(a->kind, &a->u, b->kind, &b->u);
}

/* ---- stored form ---- */

/* The box of a shape in its stored form: a stored k-DOP is tight (mbp_kdop_tighten), so its box
 * is its first MBP_DIM bounds, which saves tightening it again (most of a 3D k-DOP's box). */
void mbp__stored_aabb(uint8_t kind, const void *p, mbp_aabb *out)
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
