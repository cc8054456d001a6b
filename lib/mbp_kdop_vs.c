/* SPDX-License-Identifier: MIT */
/* mbp_kdop_vs.c: the tests of a k-DOP (mbp_kdop.c) against every shape (mbp__kdop_vs()), and
 * the 2D projections they use; the 3D vertices and the axes made from them: mbp_kdop_verts.c.
 *
 * Tests
 * -----
 *   2D: separating axis tests (mbp_shape.h) over the k-DOP's own 4 axes plus the other shape's.
 *       A tight 8-DOP is a polygon whose vertices are the crossings of consecutive bounds, so
 *       its projection onto any axis is exact (8 vertices, in doubled units in fixed point).
 *       Against a box or k-DOP: the 4 axes (all edge normals: exact). Against an oriented box:
 *       plus its 2 normals (exact). Against a sphere or capsule: plus the segment's normal and,
 *       for each end point, the axis to its nearest vertex (exact: every closest-feature case).
 *   3D, against a box or a 14-DOP (meet()): both are intersections of slabs along the same 7
 *       axes (a box's diagonal bounds are those of its corners), so they meet if and only if the
 *       k-DOP of the larger lower and the smaller upper bounds is not empty, which tightening
 *       detects (a bound pair crossing): exact, no axis at all.
 *   3D, against an oriented box, a sphere or a capsule (mbp__kdop_vs(), all exact): a point of
 *       the other shape in the k-DOP (its centre or an end point), or the centre of the k-DOP's
 *       box in an oriented box and the k-DOP, proves an overlap at once; else the k-DOP's own 7 axes
 *       with its bounds as given (cheap, and they decide most pairs that are apart); else the
 *       separating axis test with exact projections of the k-DOP from its vertices
 *       (mbp_kdop_verts.c: every crossing of 3 bound planes that satisfies every bound; their
 *       coordinates are halves, exact in doubled units in fixed point), over
 *         - the 7 axes;
 *         - an oriented box's 3 normals and the 27 crosses of its edges with the k-DOP's edge
 *           directions (the 3 axes and the 6 face diagonals (0, 1, +-1), (1, 0, +-1),
 *           (1, +-1, 0): the crosses of two axes). With the face normals of both, that is every
 *           axis two polyhedra can need: exact;
 *         - for a sphere or capsule: the segment crossed with the 9 edge directions; each end
 *           point to its nearest vertex, and the perpendicular from its nearest edge (two
 *           vertices on bound planes of two different axes are the ends of an edge); the
 *           perpendicular from the vertex nearest to the segment. With the face normals that
 *           is every closest-feature case (an end point or the segment's inside against a face,
 *           an edge or a vertex): exact. The nearest features are chosen coarsely; the axes
 *           themselves are exact.
 *       The vertices cost most of it (29 triples of independent axes, 8 choices of bounds
 *       each, about 24 to keep): built once per test, and only when the cheap steps did not
 *       decide.
 */
#include "mbp_shape.h"
#include "mbp_kdop.h"
#include "mbp_kdop_verts.h"

#if MBP_WITH_KDOP

#define KA MBP_KDOP_AXES

/* ---- projections (2D; the 3D vertices' own: mbp_kdop_verts.c) ---- */

#if MBP_DIM == 2
/* Vertex i (0..7) of the tight 8-DOP, counter-clockwise from the +x edge (fixed point: doubled
 * coordinates, from the doubled bounds): where consecutive bounds cross. One at a time, so that
 * no array of them sits on the stack. */
static void vertex(const mbp__kprep *q, int i, mbp__w v[2])
{
    const mbp__w *L = q->lo, *H = q->hi;
    switch (i) {
    case 0: /* x = max, x+y = max */
        v[0] = H[0];
        v[1] = H[2] - H[0];
        break;
    case 1: /* x+y = max, y = max */
        v[0] = H[2] - H[1];
        v[1] = H[1];
        break;
    case 2: /* y = max, x-y = min */
        v[0] = L[3] + H[1];
        v[1] = H[1];
        break;
    case 3: /* x-y = min, x = min */
        v[0] = L[0];
        v[1] = L[0] - L[3];
        break;
    case 4: /* x = min, x+y = min */
        v[0] = L[0];
        v[1] = L[2] - L[0];
        break;
    case 5: /* x+y = min, y = min */
        v[0] = L[2] - L[1];
        v[1] = L[1];
        break;
    case 6: /* y = min, x-y = max */
        v[0] = H[3] + L[1];
        v[1] = L[1];
        break;
    default: /* x-y = max, x = max */
        v[0] = H[0];
        v[1] = H[0] - H[3];
        break;
    }
}
#endif

#if MBP_DIM == 2
void mbp__kdop_span(const mbp__kprep *q, const mbp__axis *L, const mbp_scalar *o, mbp__w *lo,
                    mbp__w *hi)
{
    mbp__w a = 0, b = 0;
    for (int i = 0; i < 8; i++) {
        mbp__w v[2];
        vertex(q, i, v);
#if MBP_SCALAR == MBP_FIXED
        /* doubled: |2v - 2o| <= 2^32, times |L| <= 2^28 */
        mbp__w p = (v[0] - 2 * (int64_t)o[0]) * L->v[0] + (v[1] - 2 * (int64_t)o[1]) * L->v[1];
#else
        mbp__w p = (v[0] - o[0]) * L->v[0] + (v[1] - o[1]) * L->v[1];
#endif
        a = (i == 0 || p < a) ? p : a;
        b = (i == 0 || p > b) ? p : b;
    }
#if MBP_SCALAR == MBP_FIXED
    *lo = mbp__kdop_halve(a, false);
    *hi = mbp__kdop_halve(b, true);
#else
    *lo = a;
    *hi = b;
#endif
}
#endif

/* ---- tests ---- */

/* x's reference point, near both shapes. */
static const mbp_scalar *ref_of(const mbp__prep *p)
{
    switch (p->kind) {
    case MBP__P_FRAME:
        return p->u.f.o;
    case MBP__P_KDOP:
        return p->u.k.ref;
    default:
        return p->u.s.a;
    }
}

#if MBP_DIM == 3
/* True when the 14-DOP k and x, a 14-DOP or a box, meet: both are intersections of slabs along
 * the same 7 axes (a box's diagonal bounds are those of its corners), so they meet if and only
 * if the k-DOP of the larger lower and the smaller upper bounds is not empty, which tightening
 * detects exactly (a bound pair crossing). Bounds that pass the first step lie between the
 * k-DOP's, so within the range. */
static bool meet(const mbp__kprep *q, const mbp__prep *x)
{
#if MBP_SCALAR == MBP_FLOAT
    /* Float: the box's diagonal bounds and the tightening's sums round, so a crossing by less
     * than 2^-18 of the bounds' magnitude counts as touching (a point inside a k-DOP is a box
     * of zero size: its intersection is a single point). */
    float tol = 0.0f;
    for (int j = 0; j < KA; j++) {
        float a = q->lo[j] < 0.0f ? -q->lo[j] : q->lo[j], b = q->hi[j] < 0.0f ? -q->hi[j] : q->hi[j];
        tol = a > tol ? a : tol;
        tol = b > tol ? b : tol;
    }
    tol *= 0x1p-18f;
#else
    const mbp__w tol = 0;
#endif
    mbp_kdop m;
    for (int j = 0; j < KA; j++) {
        mbp__w lo = 0, hi = 0;
        if (x->kind == MBP__P_KDOP) {
            lo = x->u.k.lo[j];
            hi = x->u.k.hi[j];
        } else {
            for (int k = 0; k < 3; k++) { /* the box is o + [0, hi] */
                mbp__w n = (mbp__w)mbp__kdop_normal[j][k], a = (mbp__w)x->u.f.o[k];
                mbp__w b = a + (mbp__w)x->u.f.hi[k];
                lo += n * (n > 0 ? a : b);
                hi += n * (n > 0 ? b : a);
            }
        }
        lo = lo > q->lo[j] ? lo : q->lo[j];
        hi = hi < q->hi[j] ? hi : q->hi[j];
        if (lo > hi + tol) {
            return false;
        }
        m.min[j] = (mbp_scalar)(lo < hi ? lo : hi);
        m.max[j] = (mbp_scalar)hi;
    }
    mbp__w lo2[KA], hi2[KA];
    mbp__kdop_tighten2(&m, lo2, hi2);
    for (int j = 0; j < KA; j++) {
        if (lo2[j] > hi2[j] + 2 * tol) {
            return false;
        }
    }
    return true;
}
#endif

#if MBP_DIM == 3
/* Whether point p is in the k-DOP (exact in fixed point). */
static bool inside(const mbp__kprep *q, const mbp_scalar *p)
{
    for (int j = 0; j < KA; j++) {
        mbp__w v = mbp__kdop_axis_of(p, j);
        if (v < q->lo[j] || v > q->hi[j]) {
            return false;
        }
    }
    return true;
}

/* A point in both proves an overlap at once, before the (costly) axes: x's centre or end
 * points in the k-DOP, or the centre of the k-DOP's box in both. */
static bool common_point(const mbp__kprep *q, const mbp__prep *x)
{
    if (x->kind == MBP__P_SEG) {
        return inside(q, x->u.s.a) || inside(q, x->u.s.b);
    }
    const mbp__frame *f = &x->u.f;
    if (inside(q, f->o)) {
        return true;
    }
    mbp_scalar c[3];
    mbp__w t[3];
    mbp__kdop_centre(q, c);
    mbp__frame_local(f, c, t);
    for (int i = 0; i < 3; i++) {
        if (t[i] < mbp__frame_lo(f, i) || t[i] > mbp__frame_hi(f, i)) {
            return false;
        }
    }
    return inside(q, c);
}
#endif

#if MBP_DIM == 2
bool mbp__kdop_vs(const mbp__prep *kp, const mbp__prep *x)
{
    const mbp_scalar *o = ref_of(x);
    mbp__w v[MBP_DIM];
    for (int j = 0; j < KA; j++) { /* the k-DOP's own axes */
        for (int k = 0; k < MBP_DIM; k++) {
            v[k] = (mbp__w)mbp__kdop_normal[j][k];
        }
        if (mbp__apart_v(kp, x, v, o)) {
            return false;
        }
    }
    if (x->kind == MBP__P_FRAME) {
        if (x->u.f.aligned) {
            return true; /* its normals are among the k-DOP's */
        }
        for (int i = 0; i < MBP_DIM; i++) {
            for (int k = 0; k < MBP_DIM; k++) {
                v[k] = (mbp__w)x->u.f.u[i][k];
            }
            if (mbp__apart_v(kp, x, v, o)) {
                return false;
            }
        }
        return true;
    }
    if (x->kind != MBP__P_SEG) {
        return true;
    }
    const mbp_scalar *a = x->u.s.a, *b = x->u.s.b;
    bool seg = false;
    for (int k = 0; k < MBP_DIM; k++) {
        seg = seg || a[k] != b[k];
    }
    const mbp__kprep *q = &kp->u.k;
    mbp__w d[2];
    if (seg) {
        mbp__wdiff(b, a, d);
        v[0] = -d[1];
        v[1] = d[0];
        if (mbp__apart_v(kp, x, v, o)) {
            return false;
        }
    }
    for (int e = 0; e < (seg ? 2 : 1); e++) { /* each end point to its nearest vertex */
        const mbp_scalar *p = e == 0 ? a : b;
        mbp__w best = 0;
        for (int i = 0; i < 8; i++) {
            mbp__w dd[2], vx[2], n2 = 0;
            vertex(q, i, vx);
            for (int k = 0; k < 2; k++) {
#if MBP_SCALAR == MBP_FIXED
                dd[k] = 2 * (int64_t)p[k] - vx[k]; /* doubled, |.| <= 2^32 */
                mbp__w c = dd[k] / 4;              /* coarse, only to choose */
                n2 += c * c;
#else
                dd[k] = p[k] - vx[k];
                n2 += dd[k] * dd[k];
#endif
            }
            if (i == 0 || n2 < best) {
                best = n2;
                v[0] = dd[0];
                v[1] = dd[1];
            }
        }
        if (mbp__apart_v(kp, x, v, o)) {
            return false;
        }
    }
    return true;
}


#else

/* True when the k-DOP's own axis j, with its bounds as given (they hold it, tight or not),
 * separates it from x: the cheap first try. */
static bool own_apart(const mbp__kprep *q, const mbp__prep *x, int j, const mbp_scalar *o)
{
    mbp__w v[3];
    mbp__axis L;
    for (int k = 0; k < 3; k++) {
        v[k] = (mbp__w)mbp__kdop_normal[j][k];
    }
    (void)mbp__axis_set(&L, v);
    int k0 = j < 2 ? j : 2; /* a non-zero component of n_j: L = sc n_j */
    mbp__w sc = (mbp__w)L.v[k0] * (mbp__w)mbp__kdop_normal[j][k0];
    mbp__w no = mbp__kdop_axis_of(o, j), xlo, xhi;
    mbp__span(x, &L, o, &xlo, &xhi);
    return mbp__apart_spans(sc * (q->lo[j] - no), sc * (q->hi[j] - no), xlo, xhi, x->r, &L);
}

bool mbp__kdop_vs(const mbp__prep *kp, const mbp__prep *x)
{
    const mbp__kprep *q = &kp->u.k;
    if (x->kind == MBP__P_KDOP || (x->kind == MBP__P_FRAME && x->u.f.aligned)) {
        return meet(q, x);
    }
    if (common_point(q, x)) {
        return true;
    }
    const mbp_scalar *o = ref_of(x);
    for (int j = 0; j < KA; j++) {
        if (own_apart(q, x, j, o)) {
            return false;
        }
    }
    mbp__kverts kv; /* then exactly: the vertices */
    mbp__kverts_build(q, &kv);
    mbp__w v[3];
    for (int j = 0; j < KA; j++) { /* the k-DOP's own axes */
        for (int k = 0; k < 3; k++) {
            v[k] = (mbp__w)mbp__kdop_normal[j][k];
        }
        if (mbp__kverts_apart(&kv, x, v, o)) {
            return false;
        }
    }
    if (x->kind == MBP__P_FRAME) {
        for (int i = 0; i < 3; i++) { /* its normals, then its edges against the k-DOP's */
            mbp__w u[3];
            for (int k = 0; k < 3; k++) {
                u[k] = (mbp__w)x->u.f.u[i][k];
            }
            if (mbp__kverts_apart(&kv, x, u, o)) {
                return false;
            }
            if (mbp__kverts_crosses_apart(&kv, x, u, o)) {
                return false;
            }
        }
        return true;
    }
    const mbp_scalar *a = x->u.s.a, *b = x->u.s.b;
    bool seg = false;
    for (int k = 0; k < 3; k++) {
        seg = seg || a[k] != b[k];
    }
    if (seg) { /* the segment against the k-DOP's edges */
        mbp__w d[3];
        mbp__wdiff(b, a, d);
        if (mbp__kverts_crosses_apart(&kv, x, d, o)) {
            return false;
        }
    }
    for (int e = 0; e < (seg ? 2 : 1); e++) { /* each end point to its nearest vertex */
        const mbp_scalar *p = e == 0 ? a : b;
        mbp__w best = 0;
        for (int m = 0; m < kv.n; m++) {
            mbp__w dd[3], n2 = 0;
            for (int k = 0; k < 3; k++) {
                /* doubled, relative to c: |.| < 2^33 (fixed point) */
                dd[k] = 2 * ((mbp__w)p[k] - (mbp__w)kv.c[k]) - (mbp__w)kv.v[m][k];
#if MBP_SCALAR == MBP_FIXED
                mbp__w cc = dd[k] / 8; /* coarse, only to choose */
                n2 += cc * cc;
#else
                n2 += dd[k] * dd[k];
#endif
            }
            if (m == 0 || n2 < best) {
                best = n2;
                for (int k = 0; k < 3; k++) {
                    v[k] = dd[k];
                }
            }
        }
        if (mbp__kverts_apart(&kv, x, v, o)) {
            return false;
        }
    }
    mbp__w A[3], B[3]; /* the end points, doubled, relative to c: |.| < 2^33 */
    for (int k = 0; k < 3; k++) {
        A[k] = 2 * ((mbp__w)a[k] - (mbp__w)kv.c[k]);
        B[k] = 2 * ((mbp__w)b[k] - (mbp__w)kv.c[k]);
    }
    mbp__coarse cs;
    mbp__kverts_coarse(&cs, &kv, A, B);
    for (int e = 0; e < (seg ? 2 : 1); e++) { /* each end point to its nearest edge */
        if (mbp__kverts_edge_axis(&kv, &cs, e == 0 ? A : B, v) && mbp__kverts_apart(&kv, x, v, o)) {
            return false;
        }
    }
    if (seg && mbp__kverts_vertex_seg_axis(&kv, &cs, A, B, v) && mbp__kverts_apart(&kv, x, v, o)) {
        return false; /* the segment to its nearest vertex */
    }
    return true;
}
#endif

#endif /* MBP_WITH_KDOP */
