/* SPDX-License-Identifier: MIT */
/* mbp_sat.c: the separating-axis machinery of the shape tests (mbp_shape.h explains it and the
 * fixed-point ranges), and the test of a point or segment with a radius (sphere, capsule)
 * against a box-like frame (axis-aligned or oriented box).
 *
 * Point or segment s (radius r) against frame f: the axes tried are
 *   - for each end point p of s: the direction from p's clamp into f (in f's own coordinates)
 *     to p. If p is inside f, they overlap. For a sphere this one axis is the whole test;
 *   - f's face normals; in 2D the segment's normal; in 3D the crosses of the segment with f's
 *     edges;
 *   - in 3D, when the segment's closest point to f lies beside a vertex of f (found
 *     approximately, by bisection on the slope of the squared distance along the segment): the
 *     perpendicular from that vertex to the segment's line.
 * That holds the farthest-apart axis of every case (end point against face, edge or vertex; the
 * segment's inside against face, edge or vertex), so the test is exact for an orthonormal
 * rotation, up to the rounding of axes in fixed point and of floats in float. Cost: 2 axes for a
 * sphere, 5 (2D) or 9 (3D) for a capsule, each a few dot products.
 */
#include "mbp_shape.h"

#if MBP__SHAPES

mbp_status mbp__scalar_check(mbp_scalar s)
{
#if MBP_SCALAR == MBP_FLOAT
    if (!(s == s) || s - s != 0.0f) {
        return MBP_E_BADBOX;
    }
#endif
    return mbp_in_range(s) ? MBP_OK : MBP_E_RANGE;
}

/* ---- numbers ---- */

#if MBP_SCALAR == MBP_FIXED

static uint64_t mag(int64_t v)
{
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

static int64_t with_sign(uint64_t m, bool neg)
{
    return neg ? -(int64_t)m : (int64_t)m;
}

/* The number of bits of m (0 for 0), by halving: 6 steps. */
static int bitlen(uint64_t m)
{
    int b = 0;
    for (int s = 32; s > 0; s >>= 1) {
        if ((m >> s) != 0u) {
            m >>= s;
            b += s;
        }
    }
    return b + (m != 0u ? 1 : 0);
}

/* v * 2^-s rounded to nearest (s >= 1), without shifting negative numbers. */
static int64_t shr_round(int64_t v, int s)
{
    uint64_t m = (mag(v) + ((uint64_t)1 << (s - 1))) >> s;
    return with_sign(m, v < 0);
}

#if MBP_DIM == 3 && MBP_WITH_CAPSULE
/* floor (up = false) or ceil (up = true) of x * n / 2^30, exactly, for |x| <= 2^31 and
 * |n| <= 2^61: n is split into its high and low 30 bits so that no product exceeds 2^62. */
static int64_t mul30(int64_t x, int64_t n, bool up)
{
    uint64_t ux = mag(x), un = mag(n);
    uint64_t lo = ux * (un & 0x3FFFFFFFu);
    uint64_t q = ux * (un >> 30) + (lo >> 30);
    bool rem = (lo & 0x3FFFFFFFu) != 0u;
    bool neg = (x < 0) != (n < 0);
    if (neg) {
        return -(int64_t)q - ((!up && rem) ? 1 : 0);
    }
    return (int64_t)q + ((up && rem) ? 1 : 0);
}
#endif

/* ceil(sqrt(n)) for n < 2^60. */
static uint64_t isqrt_ceil(uint64_t n)
{
    uint64_t r = 0u, bit = (uint64_t)1 << 58, x = n;
    while (bit > x) {
        bit >>= 2;
    }
    while (bit != 0u) {
        if (x >= r + bit) {
            x -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return r + (x != 0u ? 1u : 0u);
}

static void scale_to(mbp__w v[MBP_DIM], int target, bool up_too)
{
    uint64_t m = 0u;
    for (int k = 0; k < MBP_DIM; k++) {
        m |= mag(v[k]);
    }
    int b = bitlen(m);
    if (b > target) {
        for (int k = 0; k < MBP_DIM; k++) {
            v[k] = shr_round(v[k], b - target);
        }
    } else if (up_too && b != 0) {
        for (int k = 0; k < MBP_DIM; k++) {
            v[k] = with_sign(mag(v[k]) << (target - b), v[k] < 0);
        }
    }
}

bool mbp__axis_set(mbp__axis *L, const mbp__w v[MBP_DIM])
{
    mbp__w s[MBP_DIM];
    bool any = false;
    for (int k = 0; k < MBP_DIM; k++) {
        s[k] = v[k];
        any = any || v[k] != 0;
    }
    if (!any) {
        return false;
    }
    scale_to(s, 28, true);
    for (int k = 0; k < MBP_DIM; k++) {
        L->v[k] = (mbp__ac)s[k];
    }
    return true;
}

void mbp__wnorm(mbp__w v[MBP_DIM])
{
    scale_to(v, 30, false);
}

mbp__w mbp__frame_lo(const mbp__frame *f, int i)
{
    return (mbp__w)f->lo[i] * ((mbp__w)1 << 30);
}

mbp__w mbp__frame_hi(const mbp__frame *f, int i)
{
    return (mbp__w)f->hi[i] * ((mbp__w)1 << 30);
}

#else /* MBP_FLOAT */

static float fabs_(float x)
{
    return x < 0.0f ? -x : x;
}

bool mbp__axis_set(mbp__axis *L, const mbp__w v[MBP_DIM])
{
    float m = 0.0f;
    for (int k = 0; k < MBP_DIM; k++) {
        m = fabs_(v[k]) > m ? fabs_(v[k]) : m;
    }
    if (!(m > 0.0f)) {
        return false;
    }
    for (int k = 0; k < MBP_DIM; k++) {
        L->v[k] = v[k] / m;
    }
    return true;
}

void mbp__wnorm(mbp__w v[MBP_DIM])
{
    float m = 0.0f;
    for (int k = 0; k < MBP_DIM; k++) {
        m = fabs_(v[k]) > m ? fabs_(v[k]) : m;
    }
    if (m > 0.0f) {
        for (int k = 0; k < MBP_DIM; k++) {
            v[k] /= m;
        }
    }
}

mbp__w mbp__frame_lo(const mbp__frame *f, int i)
{
    return f->lo[i];
}

mbp__w mbp__frame_hi(const mbp__frame *f, int i)
{
    return f->hi[i];
}

#endif

#if MBP_DIM == 3
void mbp__wcross(const mbp__w a[3], const mbp__w b[3], mbp__w out[3])
{
    mbp__w x[3], y[3];
    for (int k = 0; k < 3; k++) {
        x[k] = a[k];
        y[k] = b[k];
    }
    mbp__wnorm(x);
    mbp__wnorm(y);
    out[0] = x[1] * y[2] - x[2] * y[1];
    out[1] = x[2] * y[0] - x[0] * y[2];
    out[2] = x[0] * y[1] - x[1] * y[0];
}
#endif

void mbp__wdiff(const mbp_scalar *p, const mbp_scalar *q, mbp__w v[MBP_DIM])
{
    for (int k = 0; k < MBP_DIM; k++) {
        v[k] = (mbp__w)p[k] - (mbp__w)q[k];
    }
}

mbp__w mbp__proj(const mbp__axis *L, const mbp_scalar *x, const mbp_scalar *o)
{
    mbp__w s = 0;
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        s += (int64_t)L->v[k] * (int32_t)(x[k] - o[k]); /* |x - o| <= 2^31 - 2: fits */
#else
        s += L->v[k] * (x[k] - o[k]);
#endif
    }
    return s;
}

/* ---- frames ---- */

void mbp__prep_box(mbp__prep *p, const mbp_aabb *b)
{
    p->kind = MBP__P_FRAME;
    p->r = 0;
    mbp__frame *f = &p->u.f;
    for (int i = 0; i < MBP_DIM; i++) {
        f->o[i] = b->min[i];
        f->lo[i] = 0;
        f->hi[i] = b->max[i] - b->min[i]; /* <= 2^31 - 2 in fixed point: fits */
        for (int k = 0; k < MBP_DIM; k++) {
            f->u[i][k] = i == k ? MBP_UNIT_ONE : (mbp_unit)0;
        }
    }
    f->aligned = 1u;
}

#if MBP_WITH_OBB
void mbp__prep_obb(mbp__prep *p, const mbp_obb *o)
{
    p->kind = MBP__P_FRAME;
    p->r = 0;
    mbp__frame *f = &p->u.f;
    for (int i = 0; i < MBP_DIM; i++) {
        f->o[i] = o->c[i];
        f->lo[i] = -o->h[i];
        f->hi[i] = o->h[i];
        for (int k = 0; k < MBP_DIM; k++) {
            f->u[i][k] = o->rot[i][k];
        }
    }
    f->aligned = 0u;
}
#endif

void mbp__prep_seg(mbp__prep *p, const mbp_scalar *a, const mbp_scalar *b, mbp_scalar r)
{
    p->kind = MBP__P_SEG;
    p->r = r;
    for (int k = 0; k < MBP_DIM; k++) {
        p->u.s.a[k] = a[k];
        p->u.s.b[k] = b[k];
    }
}

void mbp__frame_local(const mbp__frame *f, const mbp_scalar *x, mbp__w t[MBP_DIM])
{
    for (int i = 0; i < MBP_DIM; i++) {
        mbp__w s = 0;
        for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
            s += (int64_t)f->u[i][k] * (int32_t)(x[k] - f->o[k]);
#else
            s += f->u[i][k] * (x[k] - f->o[k]);
#endif
        }
        t[i] = s;
    }
}

void mbp__frame_world(const mbp__frame *f, mbp__w loc[MBP_DIM], mbp__w out[MBP_DIM])
{
    mbp__wnorm(loc);
    for (int k = 0; k < MBP_DIM; k++) {
        mbp__w s = 0;
        for (int i = 0; i < MBP_DIM; i++) {
            s += loc[i] * (mbp__w)f->u[i][k];
        }
        out[k] = s;
    }
}

static void frame_span(const mbp__frame *f, const mbp__axis *L, const mbp_scalar *o, mbp__w *lo,
                       mbp__w *hi)
{
    mbp__w c = mbp__proj(L, f->o, o);
    mbp__w a = c, b = c;
    for (int i = 0; i < MBP_DIM; i++) {
        /* u_i.L: exact; in fixed point scaled by 2^30 */
        mbp__w n;
        if (f->aligned) {
#if MBP_SCALAR == MBP_FIXED
            n = (int64_t)L->v[i] * ((int64_t)1 << 30);
#else
            n = L->v[i];
#endif
        } else {
            n = 0;
            for (int k = 0; k < MBP_DIM; k++) {
                n += (mbp__w)f->u[i][k] * (mbp__w)L->v[k];
            }
        }
#if MBP_SCALAR == MBP_FIXED
        /* t (u_i.L) for t in [lo, hi], with u_i.L = n / 2^30 in [nl, nh] (n rounded both ways):
         * the least and largest of the four corner products hold the true range. Each product
         * is a 32 x 32 bit one, below 2^31 * 2^29.6. */
        uint64_t m = mag(n);
        int64_t q = (int64_t)(m >> 30), r = (m & 0x3FFFFFFFu) != 0u ? 1 : 0;
        int64_t nl = n >= 0 ? q : -q - r, nh = n >= 0 ? q + r : -q;
        int64_t p0 = (int64_t)f->lo[i] * nl, p1 = (int64_t)f->hi[i] * nl;
        int64_t emin = p0 < p1 ? p0 : p1, emax = p0 < p1 ? p1 : p0;
        if (nh != nl) {
            int64_t p2 = (int64_t)f->lo[i] * nh, p3 = (int64_t)f->hi[i] * nh;
            emin = p2 < emin ? p2 : emin;
            emin = p3 < emin ? p3 : emin;
            emax = p2 > emax ? p2 : emax;
            emax = p3 > emax ? p3 : emax;
        }
        a += emin;
        b += emax;
#else
        mbp_scalar tlo = n >= 0 ? f->lo[i] : f->hi[i]; /* the end that gives the least */
        mbp_scalar thi = n >= 0 ? f->hi[i] : f->lo[i];
        a += tlo * n;
        b += thi * n;
#endif
    }
    *lo = a;
    *hi = b;
}

void mbp__span(const mbp__prep *p, const mbp__axis *L, const mbp_scalar *o, mbp__w *lo,
               mbp__w *hi)
{
    switch (p->kind) {
    case MBP__P_FRAME:
        frame_span(&p->u.f, L, o, lo, hi);
        break;
#if MBP_WITH_KDOP && MBP_DIM == 2
    case MBP__P_KDOP: /* (3D k-DOPs project their own way: mbp_kdop_vs.c) */
        mbp__kdop_span(&p->u.k, L, o, lo, hi);
        break;
#endif
    default: {
        mbp__w a = mbp__proj(L, p->u.s.a, o), b = mbp__proj(L, p->u.s.b, o);
        *lo = a < b ? a : b;
        *hi = a < b ? b : a;
        break;
    }
    }
}

bool mbp__apart(const mbp__prep *a, const mbp__prep *b, const mbp__axis *L, const mbp_scalar *o)
{
    mbp__w alo, ahi, blo, bhi;
    mbp__span(a, L, o, &alo, &ahi);
    mbp__span(b, L, o, &blo, &bhi);
    return mbp__apart_spans(alo, ahi, blo, bhi, a->r + b->r, L);
}

bool mbp__apart_spans(mbp__w alo, mbp__w ahi, mbp__w blo, mbp__w bhi, mbp_scalar r,
                      const mbp__axis *L)
{
#if MBP_SCALAR == MBP_FIXED
    int64_t R = (int64_t)r;
    int64_t rl = 0;
    if (R != 0) {
        uint64_t l2 = 0u;
        for (int k = 0; k < MBP_DIM; k++) {
            l2 += (uint64_t)((int64_t)L->v[k] * L->v[k]);
        }
        rl = R * (int64_t)isqrt_ceil(l2); /* >= R|L|: < 2^31 * 2^29 */
    }
    return blo > ahi + rl || alo > bhi + rl;
#else
    float d = blo - ahi;
    float d2 = alo - bhi;
    d = d2 > d ? d2 : d;
    if (!(d > 0.0f)) {
        return false;
    }
    float R = r;
    if (R == 0.0f) {
        return true;
    }
    float l2 = 0.0f;
    for (int k = 0; k < MBP_DIM; k++) {
        l2 += L->v[k] * L->v[k];
    }
    return d * d > R * R * l2;
#endif
}

bool mbp__apart_v(const mbp__prep *a, const mbp__prep *b, const mbp__w v[MBP_DIM],
                  const mbp_scalar *o)
{
    mbp__axis L;
    return mbp__axis_set(&L, v) && mbp__apart(a, b, &L, o);
}

/* ---- point or segment against a frame ---- */

#if MBP_WITH_OBB || MBP_WITH_CAPSULE

/* The direction from p's clamp into f to p (world), and whether p is outside f. */
static bool clamp_dir(const mbp__frame *f, const mbp_scalar *p, mbp__w v[MBP_DIM])
{
    mbp__w t[MBP_DIM], d[MBP_DIM];
    bool out = false;
    mbp__frame_local(f, p, t);
    for (int i = 0; i < MBP_DIM; i++) {
        mbp__w lo = mbp__frame_lo(f, i), hi = mbp__frame_hi(f, i);
        d[i] = t[i] < lo ? t[i] - lo : (t[i] > hi ? t[i] - hi : 0);
        out = out || d[i] != 0;
    }
    if (out) {
        mbp__frame_world(f, d, v);
    }
    return out;
}

#if MBP_DIM == 3 && MBP_WITH_CAPSULE
/* Segment a-b (local coordinates A + t D, t in [0, 1]) against frame f: if the segment's point
 * closest to f lies beside a vertex of f (outside all three slabs), writes the perpendicular
 * from that vertex to the segment's line (world) to v and returns true. The closest point is
 * found approximately (coarse coordinates, bisection on the sign of the slope): it only picks
 * the vertex; the axis itself is exact. */
static bool vertex_axis(const mbp__frame *f, const mbp__w A[3], const mbp__w D[3], mbp__w v[3])
{
#if MBP_SCALAR == MBP_FIXED
    /* Coarse: scaled by 2^-33 (units of 8 raw units), |.| < 2^30; t in Q30. */
    int64_t a[3], d[3], lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        a[i] = shr_round(A[i], 33);
        d[i] = shr_round(D[i], 33);
        lo[i] = shr_round(mbp__frame_lo(f, i), 33);
        hi[i] = shr_round(mbp__frame_hi(f, i), 33);
    }
    const int64_t one = (int64_t)1 << 30;
#define MBP__AT(i, t) (a[i] + mul30(d[i], (t), false))
#else
    const float *a = A, *d = D;
    float lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        lo[i] = f->lo[i];
        hi[i] = f->hi[i];
    }
    const float one = 1.0f;
#define MBP__AT(i, t) (a[i] + d[i] * (t))
#endif
    mbp__w tl = 0, th = one, t = 0;
    for (int it = 0; it < 32; it++) {
        t = it == 0 ? 0 : it == 1 ? one : (tl + th) / 2;
        mbp__w slope = 0;
        for (int i = 0; i < 3; i++) {
            mbp__w x = MBP__AT(i, t);
            mbp__w e = x < lo[i] ? x - lo[i] : (x > hi[i] ? x - hi[i] : 0);
            slope += e * d[i];
        }
        if (it == 0) {
            if (slope >= 0) {
                break; /* t = 0 */
            }
        } else if (it == 1) {
            if (slope <= 0) {
                break; /* t = 1 */
            }
        } else if (slope < 0) {
            tl = t;
        } else {
            th = t;
        }
    }
    mbp__w w[3], m[3], n[3];
    for (int i = 0; i < 3; i++) {
        mbp__w x = MBP__AT(i, t);
        if (x >= lo[i] && x <= hi[i]) {
            return false; /* beside a face or an edge: other axes cover it */
        }
        w[i] = A[i] - (x < lo[i] ? mbp__frame_lo(f, i) : mbp__frame_hi(f, i));
        m[i] = D[i];
    }
#undef MBP__AT
    mbp__wcross(w, m, n); /* normal of the plane of the vertex and the line */
    mbp__wcross(m, n, w); /* in that plane, perpendicular to the line */
    mbp__frame_world(f, w, v);
    return true;
}
#endif

bool mbp__seg_frame(const mbp__prep *s, const mbp__prep *fp)
{
    const mbp__frame *f = &fp->u.f;
    const mbp_scalar *o = f->o;
    const mbp_scalar *a = s->u.s.a, *b = s->u.s.b;
    mbp__w v[MBP_DIM];
    bool seg = false;
    for (int k = 0; k < MBP_DIM; k++) {
        seg = seg || a[k] != b[k];
    }
    if (!clamp_dir(f, a, v)) {
        return true; /* a is inside f */
    }
    if (mbp__apart_v(s, fp, v, o)) {
        return false;
    }
    if (!seg) {
        return true; /* a sphere: that axis was the whole test */
    }
#if MBP_WITH_CAPSULE
    if (!clamp_dir(f, b, v)) {
        return true;
    }
    if (mbp__apart_v(s, fp, v, o)) {
        return false;
    }
    for (int i = 0; i < MBP_DIM; i++) { /* f's face normals */
        for (int k = 0; k < MBP_DIM; k++) {
            v[k] = (mbp__w)f->u[i][k];
        }
        if (mbp__apart_v(s, fp, v, o)) {
            return false;
        }
    }
    mbp__w d[MBP_DIM];
    mbp__wdiff(b, a, d);
#if MBP_DIM == 2
    v[0] = -d[1];
    v[1] = d[0];
    if (mbp__apart_v(s, fp, v, o)) {
        return false;
    }
#else
    for (int i = 0; i < 3; i++) { /* the segment against f's edges */
        mbp__w e[3];
        for (int k = 0; k < 3; k++) {
            e[k] = (mbp__w)f->u[i][k];
        }
        mbp__wcross(d, e, v);
        if (mbp__apart_v(s, fp, v, o)) {
            return false;
        }
    }
    mbp__w A[3], B[3], D[3];
    mbp__frame_local(f, a, A);
    mbp__frame_local(f, b, B);
    for (int i = 0; i < 3; i++) {
        D[i] = B[i] - A[i]; /* |A|, |B| < 1.51 * 2^62 each, but B - A = u.(b - a): < 1.51 * 2^62 */
    }
    if (vertex_axis(f, A, D, v) && mbp__apart_v(s, fp, v, o)) {
        return false;
    }
#endif
#endif
    return true;
}

#endif /* MBP_WITH_OBB || MBP_WITH_CAPSULE */

#endif /* MBP__SHAPES */
