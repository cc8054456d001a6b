/* SPDX-License-Identifier: MIT */
/* mbp_rss.c: rectangle-swept spheres (RSS): the check, the tight box, the test against every
 * other shape, and the fit from points.
 *
 * The test: an RSS is the union of parts whose tests exist already. A point within r of the
 * rectangle has its nearest rectangle point either inside the rectangle (then it is within r
 * along the normal) or on an edge (then it is within r of that edge). So:
 *   - 3D: the slab, the oriented box (c, rot, h0, h1, r), and the 4 edges as capsules of radius r;
 *   - 2D: the oriented box (c, rot, h0, h1 + r) and the 2 edges across rot[0] (t0 = +-h0) as
 *     capsules of radius r (a nearest point on the other two edges is covered by the box).
 * Every point of the union is in the RSS and every point of the RSS in the union, so the RSS
 * overlaps a shape if and only if one part does, and each part's test is exact (mbp_obb.c,
 * mbp_sat.c, mbp_capsule.c, mbp_kdop_vs.c): the RSS's test is exact too, with the same rounding.
 * Two RSS: every part of one against every part of the other (3 x 3 in 2D, 5 x 5 in 3D). The
 * parts are made one at a time (a prepared shape is up to 136 bytes: the stack stays at two).
 *
 * Fixed point: the slab is exact (its frame is the RSS's numbers), but the rectangle's corners
 * c + s0 h0 rot[0] + s1 h1 rot[1] are rounded to the nearest raw unit (each coordinate off by at
 * most 1/2, so the corner by at most sqrt(3)/2 < 1): an edge with a rounded end takes r + 1 raw
 * unit, so its capsule holds the true edge's and the test never misses an overlap; it may report
 * shapes a raw unit apart as touching, as the rounded axes already may. Exact corners (quarter
 * turns, rows along the axes) keep r. The corner sums are products of
 * a coordinate (below 2^30) and a Q30 entry (below 2^30 (1 + 2^-10)): two below 2^61.01 in
 * int64. The check keeps the rectangle's box within the range, so corners are coordinates and
 * their differences fit int32 as mbp_shape.h's ranges assume.
 */
#include "mbp_shape.h"

#if MBP_WITH_RSS

/* The rectangle's half-extent along world axis k (fixed point: rounded up). */
static mbp__w rect_extent(const mbp_rss *s, int k)
{
#if MBP_SCALAR == MBP_FIXED
    int64_t e = 0;
    for (int i = 0; i < 2; i++) {
        int64_t u = s->rot[i][k] < 0 ? -(int64_t)s->rot[i][k] : s->rot[i][k];
        int64_t p = (int64_t)s->h[i] * u;
        e += (p >> 30) + ((p & 0x3FFFFFFF) != 0 ? 1 : 0);
    }
    return e;
#else
    float e = 0.0f;
    for (int i = 0; i < 2; i++) {
        float u = s->rot[i][k];
        e += s->h[i] * (u < 0.0f ? -u : u);
    }
    return e;
#endif
}

mbp_status mbp__rss_check(const mbp_rss *s)
{
    mbp_obb o; /* centre, rows and the rectangle's extents: checked as an oriented box's */
    for (int i = 0; i < MBP_DIM; i++) {
        o.c[i] = s->c[i];
        o.h[i] = i < 2 ? s->h[i] : 0;
        for (int k = 0; k < MBP_DIM; k++) {
            o.rot[i][k] = s->rot[i][k];
        }
    }
    mbp_status st = mbp__obb_check(&o);
    mbp_status a = mbp__scalar_check(s->r);
    if (st == MBP_E_BADBOX || a == MBP_E_BADBOX) {
        return MBP_E_BADBOX;
    }
    if (st != MBP_OK || a != MBP_OK) {
        return MBP_E_RANGE;
    }
    if (s->r < 0) {
        return MBP_E_BADBOX;
    }
    for (int k = 0; k < MBP_DIM; k++) { /* the rectangle within the range */
        mbp__w e = rect_extent(s, k);
        if ((mbp__w)s->c[k] - e < -(mbp__w)MBP_RANGE || (mbp__w)s->c[k] + e > (mbp__w)MBP_RANGE) {
            return MBP_E_RANGE;
        }
    }
    return MBP_OK;
}

void mbp__rss_aabb(const mbp_rss *s, mbp_aabb *out)
{
    for (int k = 0; k < MBP_DIM; k++) {
        mbp__w e = rect_extent(s, k);
#if MBP_SCALAR == MBP_FIXED
        int64_t lo = (int64_t)s->c[k] - e - s->r, hi = (int64_t)s->c[k] + e + s->r;
        out->min[k] = lo < -(int64_t)MBP_RANGE ? -MBP_RANGE : (mbp_scalar)lo;
        out->max[k] = hi > (int64_t)MBP_RANGE ? MBP_RANGE : (mbp_scalar)hi;
#else
        out->min[k] = mbp_add_sat(s->c[k], -(e + s->r));
        out->max[k] = mbp_add_sat(s->c[k], e + s->r);
#endif
    }
}

/* The rectangle's point c + s0 h0 rot[0] + s1 h1 rot[1] (s0, s1 in {-1, 1}), rounded to the
 * nearest in fixed point; returns 1 when that rounded (0 when exact, and always in float). */
static int corner(const mbp_rss *s, int s0, int s1, mbp_scalar p[MBP_DIM])
{
    int rounded = 0;
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        int64_t v = (int64_t)s0 * s->h[0] * s->rot[0][k] + (int64_t)s1 * s->h[1] * s->rot[1][k];
        uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        rounded |= (m & 0x3FFFFFFFu) != 0u ? 1 : 0;
        m = (m + ((uint64_t)1 << 29)) >> 30;
        p[k] = s->c[k] + (v < 0 ? -(mbp_scalar)m : (mbp_scalar)m);
#else
        p[k] = s->c[k] + (float)s0 * s->h[0] * s->rot[0][k] + (float)s1 * s->h[1] * s->rot[1][k];
#endif
    }
    return rounded;
}

/* The parts: 2D 3, 3D 5. */
#define RSS_PARTS (MBP_DIM == 2 ? 3 : 5)

/* Part i of s (0: the slab; then the edges) ready for the tests. */
static void part(const mbp_rss *s, int i, mbp__prep *out)
{
    if (i == 0) {
        out->kind = MBP__P_FRAME;
        out->r = 0;
        mbp__frame *f = &out->u.f;
        for (int j = 0; j < MBP_DIM; j++) {
            f->o[j] = s->c[j];
            /* 2D: h1 + r below 2^31 - 1 in fixed point, a width as mbp__prep_box()'s */
            mbp_scalar h = j == 0 ? s->h[0] : (j == 1 ? s->h[1] : s->r);
            h = (MBP_DIM == 2 && j == 1) ? h + s->r : h;
            f->lo[j] = -h;
            f->hi[j] = h;
            for (int k = 0; k < MBP_DIM; k++) {
                f->u[j][k] = s->rot[j][k];
            }
        }
        f->aligned = 0u;
        return;
    }
    /* Edges 1, 2: t0 = -h0, +h0 (t1 from -h1 to h1); 3D edges 3, 4: t1 = -h1, +h1. */
    mbp_scalar a[MBP_DIM], b[MBP_DIM];
    int sg = (i & 1) != 0 ? -1 : 1, rounded;
    if (i <= 2) {
        rounded = corner(s, sg, -1, a) | corner(s, sg, 1, b);
    } else {
        rounded = corner(s, -1, sg, a) | corner(s, 1, sg, b);
    }
    mbp__prep_seg(out, a, b, s->r + (mbp_scalar)rounded); /* r <= 2^30 - 1: no overflow */
}

/* Prepared shapes p (a part: frame or segment) and x (any). */
static bool pair(const mbp__prep *p, const mbp__prep *x)
{
#if MBP_WITH_KDOP
    if (x->kind == MBP__P_KDOP) {
        return mbp__kdop_vs(x, p);
    }
#endif
    if (p->kind == MBP__P_FRAME) {
        return x->kind == MBP__P_FRAME ? mbp__frame_frame(p, x) : mbp__seg_frame(x, p);
    }
    return x->kind == MBP__P_FRAME ? mbp__seg_frame(p, x) : mbp__seg_seg(p, x);
}

bool mbp__rss_vs(const mbp_rss *s, const mbp__prep *x)
{
    mbp__prep p;
    for (int i = 0; i < RSS_PARTS; i++) {
        part(s, i, &p);
        if (pair(&p, x)) {
            return true;
        }
    }
    return false;
}

bool mbp__rss_rss(const mbp_rss *a, const mbp_rss *b)
{
    mbp__prep q;
    for (int j = 0; j < RSS_PARTS; j++) {
        part(b, j, &q);
        if (mbp__rss_vs(a, &q)) {
            return true;
        }
    }
    return false;
}

/* ---- the fit ---- */

/* out = the RSS of box o: its thinnest axis made the radius, widened for rows that are not
 * exactly unit (not for the identity). MBP_E_RANGE when the radius leaves the range or the
 * rectangle does (mbp__rss_check()); out is then unchanged. */
static mbp_status from_box(const mbp_obb *o, bool exact_rows, mbp_rss *out)
{
    int t = 0; /* the thinnest axis */
    for (int i = 1; i < MBP_DIM; i++) {
        t = o->h[i] < o->h[t] ? i : t;
    }
    /* rows: the other axes in order, then the thinnest (a permutation keeps them orthonormal) */
    mbp_rss s;
    int j = 0;
    for (int i = 0; i < MBP_DIM; i++) {
        int row = i == MBP_DIM - 1 ? t : (j == t ? ++j : j);
        j++;
        for (int k = 0; k < MBP_DIM; k++) {
            s.rot[i][k] = o->rot[row][k];
        }
        if (i < 2) {
            s.h[i] = i == MBP_DIM - 1 ? 0 : o->h[row]; /* 2D: the long middle line */
        }
        s.c[i] = o->c[i];
    }
    mbp_scalar r = o->h[t];
    if (!exact_rows) { /* |rot[t]| <= 1 + 2^-27: a relative 2^-20 and a raw unit are plenty */
#if MBP_SCALAR == MBP_FIXED
        r += (r >> 20) + 1; /* below 2^30 + 2^10: no overflow; past the range the check says so */
#else
        r *= 1.0f + 1.0f / 1048576.0f;
#endif
    }
    s.r = r;
    mbp_status st = mbp__rss_check(&s);
    if (st == MBP_OK) {
        *out = s;
    }
    return st;
}

mbp_status mbp_rss_from_points(const mbp_scalar (*p)[MBP_DIM], uint32_t n, mbp_rss *out)
{
    MBP__ASSERT(out != NULL && (p != NULL || n == 0u));
    mbp_obb o;
    mbp_status st = mbp_obb_from_points(p, n, &o);
    if (st != MBP_OK) {
        return st;
    }
    bool id = true;
    for (int i = 0; i < MBP_DIM; i++) {
        for (int k = 0; k < MBP_DIM; k++) {
            id = id && o.rot[i][k] == (i == k ? MBP_UNIT_ONE : (mbp_unit)0);
        }
    }
    if (from_box(&o, id, out) == MBP_OK) {
        return MBP_OK;
    }
    /* the rectangle left the range: the points' box, whose middle section stays inside */
    mbp_aabb b;
    (void)mbp_aabb_from_points(p, n, &b);
    for (int i = 0; i < MBP_DIM; i++) {
#if MBP_SCALAR == MBP_FIXED
        int64_t lo = b.min[i], w = (int64_t)b.max[i] - b.min[i];
        o.c[i] = (mbp_scalar)(lo + w / 2);
        o.h[i] = (mbp_scalar)(w - w / 2);
#else
        o.c[i] = b.min[i] * 0.5f + b.max[i] * 0.5f;
        float h1 = b.max[i] - o.c[i], h2 = o.c[i] - b.min[i]; /* each within 2^-24 of exact */
        o.h[i] = (h1 > h2 ? h1 : h2) * (1.0f + 1.0f / 4194304.0f);
#endif
        for (int k = 0; k < MBP_DIM; k++) {
            o.rot[i][k] = i == k ? MBP_UNIT_ONE : (mbp_unit)0;
        }
    }
    return from_box(&o, true, out);
}

#endif /* MBP_WITH_RSS */
