/* SPDX-License-Identifier: MIT */
/* mbp_capsule.c: capsules (a segment swept by a radius; a stadium in 2D): the check, the tight
 * box, and the test between two points or segments with radii (sphere against capsule, capsule
 * against capsule). A capsule against a box or an oriented box is mbp__seg_frame() (mbp_sat.c).
 *
 * Segment against segment: the distance between two segments is reached between two end points,
 * an end point and the inside of the other segment, or (3D, skew) the insides of both. The axes
 * tried hold the farthest-apart direction of each case:
 *   - the 4 differences of end points (1 or 2 when a segment is a point);
 *   - 2D: both segments' normals (the perpendicular from any point to a line in 2D);
 *   - 3D: the cross product of the two directions, and the perpendicular from each end point to
 *     the other segment's line, d x ((p - a) x d).
 * So the test is exact (float: up to rounding; fixed point: up to the rounding of the axes): 3
 * axes for a sphere against a capsule, 6 (2D) or 9 (3D) for two capsules, each a couple of dot
 * products and, for the radii, one integer square root in fixed point.
 */
#include "mbp_shape.h"

#if MBP_WITH_CAPSULE

mbp_status mbp__capsule_check(const mbp_capsule *c)
{
    mbp_status st = MBP_OK;
    for (int k = 0; k <= 2 * MBP_DIM; k++) {
        mbp_scalar v = k < MBP_DIM ? c->a[k] : (k < 2 * MBP_DIM ? c->b[k - MBP_DIM] : c->r);
        mbp_status a = mbp__scalar_check(v);
        if (a == MBP_E_BADBOX) {
            return a;
        }
        if (a != MBP_OK) {
            st = a;
        }
    }
    if (st == MBP_OK && c->r < 0) {
        return MBP_E_BADBOX;
    }
    return st;
}

void mbp__capsule_aabb(const mbp_capsule *c, mbp_aabb *out)
{
    for (int k = 0; k < MBP_DIM; k++) {
        mbp_scalar lo = c->a[k] < c->b[k] ? c->a[k] : c->b[k];
        mbp_scalar hi = c->a[k] < c->b[k] ? c->b[k] : c->a[k];
        out->min[k] = mbp_add_sat(lo, -c->r);
        out->max[k] = mbp_add_sat(hi, c->r);
    }
}

static bool same_point(const mbp_scalar *p, const mbp_scalar *q)
{
    for (int k = 0; k < MBP_DIM; k++) {
        if (p[k] != q[k]) {
            return false;
        }
    }
    return true;
}

#if MBP_DIM == 3
/* The perpendicular from p to the line through q with direction d (d not zero). */
static void perpendicular(const mbp_scalar *p, const mbp_scalar *q, const mbp__w d[3], mbp__w v[3])
{
    mbp__w w[3], m[3];
    mbp__wdiff(p, q, w);
    mbp__wcross(w, d, m);
    mbp__wcross(d, m, v);
}
#endif

bool mbp__seg_seg(const mbp__prep *a, const mbp__prep *b)
{
    const mbp_scalar *pa[2] = {a->u.s.a, a->u.s.b}, *pb[2] = {b->u.s.a, b->u.s.b};
    const mbp_scalar *o = pa[0];
    int na = same_point(pa[0], pa[1]) ? 1 : 2, nb = same_point(pb[0], pb[1]) ? 1 : 2;
    mbp__w v[MBP_DIM];
    for (int i = 0; i < na; i++) { /* end point against end point */
        for (int j = 0; j < nb; j++) {
            mbp__wdiff(pa[i], pb[j], v);
            if (mbp__apart_v(a, b, v, o)) {
                return false;
            }
        }
    }
    mbp__w da[MBP_DIM], db[MBP_DIM];
    mbp__wdiff(pa[1], pa[0], da);
    mbp__wdiff(pb[1], pb[0], db);
#if MBP_DIM == 2
    for (int s = 0; s < 2; s++) { /* each segment's normal */
        const mbp__w *d = s == 0 ? da : db;
        v[0] = -d[1];
        v[1] = d[0];
        if ((s == 0 ? na : nb) == 2 && mbp__apart_v(a, b, v, o)) {
            return false;
        }
    }
#else
    if (na == 2 && nb == 2) {
        mbp__wcross(da, db, v);
        if (mbp__apart_v(a, b, v, o)) {
            return false;
        }
    }
    for (int s = 0; s < 2; s++) { /* an end point of one against the other's line */
        const mbp__w *d = s == 0 ? db : da;
        const mbp_scalar *const *p = s == 0 ? pa : pb;
        const mbp_scalar *q = s == 0 ? pb[0] : pa[0];
        if ((s == 0 ? nb : na) == 1) {
            continue;
        }
        for (int i = 0; i < (s == 0 ? na : nb); i++) {
            perpendicular(p[i], q, d, v);
            if (mbp__apart_v(a, b, v, o)) {
                return false;
            }
        }
    }
#endif
    return true;
}
#endif /* MBP_WITH_CAPSULE */
