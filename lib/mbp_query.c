/* SPDX-License-Identifier: MIT */
/* mbp_query.c: box, point, sphere and ray queries over the bodies as they are now.
 *
 * The backend walks its own structure (bodies as of the last update); bodies added or moved
 * since then are tested from the world's dirty list. A truncated query keeps the cap smallest
 * results, so what it returns does not depend on the backend's visiting order.
 */
#include "mbp_internal.h"
#include "mbp_shape.h"

typedef enum { Q_BOX, Q_POINT, Q_RAY, Q_SPHERE } qkind;

typedef struct {
    const mbp_world *w;
    qkind kind;
    const mbp_aabb *box;    /* Q_BOX: the query box; all kinds: the bound given to the backend */
    const mbp_scalar *p0;   /* Q_POINT: the point; Q_RAY: the start */
    const mbp_scalar *p1;   /* Q_RAY: the end */
    const mbp_sphere *s;    /* Q_SPHERE: the sphere */
    uint16_t mask;
    uint16_t *out;          /* Q_BOX, Q_POINT, Q_SPHERE */
    mbp_hit *hits;          /* Q_RAY */
    uint32_t cap;
    uint32_t count;
} query;

#if MBP_WITH_SPHERES
/* ---- segment against sphere ----
 * With f = p0 - c and d = p1 - p0, the squared distance from c to p0 + s d, less r^2, is
 * g(s) = a s^2 + 2 b s + e with a = d.d, b = f.d, e = f.f - r^2. The segment (s in [0, 1]) meets
 * the sphere when g's least value on [0, 1] is <= 0, and it enters at the smaller root of g (0
 * when p0 is inside). */
#if MBP_SCALAR == MBP_FIXED
/* Fixed point, exact in integers: with differences below 2^31, a, f.f and the two halves of b
 * (its positive and negative products summed apart) are below 3 * 2^62 and fit uint64_t; the
 * products compared below need 128 bits, kept as two uint64_t. */
typedef struct {
    uint64_t hi, lo;
} u128;

static u128 mul64(uint64_t x, uint64_t y)
{
    uint64_t x0 = x & 0xFFFFFFFFu, x1 = x >> 32, y0 = y & 0xFFFFFFFFu, y1 = y >> 32;
    uint64_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu); /* below 3 * 2^32 */
    u128 r = {p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32), (mid << 32) | (p00 & 0xFFFFFFFFu)};
    return r;
}

static u128 add(u128 x, u128 y)
{
    u128 r = {x.hi + y.hi, x.lo + y.lo};
    r.hi += r.lo < x.lo ? 1u : 0u;
    return r;
}

static bool le(u128 x, u128 y)
{
    return x.hi < y.hi || (x.hi == y.hi && x.lo <= y.lo);
}

static uint64_t dist2(const mbp_scalar *p, const mbp_scalar *c)
{
    uint64_t d2 = 0;
    for (int k = 0; k < MBP_DIM; k++) {
        int64_t v = (int64_t)p[k] - c[k];
        d2 += (uint64_t)(v * v);
    }
    return d2;
}

/* t = the entry fraction rounded down (raw units of MBP_ONE): never after the true entry. */
static bool segment_sphere(const mbp_scalar *p0, const mbp_scalar *p1, const mbp_sphere *sp,
                           mbp_scalar *t)
{
    uint64_t r2 = (uint64_t)((int64_t)sp->r * sp->r);
    uint64_t ff = dist2(p0, sp->c);
    *t = 0;
    if (ff <= r2) {
        return true;
    }
    uint64_t a = 0, bpos = 0, bneg = 0;
    for (int k = 0; k < MBP_DIM; k++) {
        int64_t d = (int64_t)p1[k] - p0[k], f = (int64_t)p0[k] - sp->c[k];
        int64_t m = f * d; /* |m| < 2^62 */
        a += (uint64_t)(d * d);
        if (m < 0) {
            bneg += (uint64_t)-m;
        } else {
            bpos += (uint64_t)m;
        }
    }
    if (bneg <= bpos) {
        return false; /* b >= 0: p0 is outside and the segment does not approach c */
    }
    uint64_t nb = bneg - bpos, e = ff - r2; /* -b > 0, e > 0 */
    /* g is least at s* = -b/a; beyond the end (s* >= 1) at p1. Inside: g(s*) <= 0 is
     * a e <= b^2. */
    if (nb >= a ? dist2(p1, sp->c) > r2 : !le(mul64(a, e), mul64(nb, nb))) {
        return false;
    }
    /* The largest T in [0, 2^F] with T/2^F <= s* and g(T/2^F) >= 0 is the entry rounded down:
     * on [0, s*] g falls, so both hold exactly up to it. Times 2^2F, g(T/2^F) >= 0 reads
     * a T^2 + e 2^2F >= -b T 2^(F+1) (each side below 2^114). */
    const uint64_t one = (uint64_t)1 << MBP_FIXED_FRAC_BITS;
    u128 e2 = mul64(e, one * one), sstar = mul64(nb, one);
    uint64_t lo = 0, hi = one + 1u;
    while (hi - lo > 1u) {
        uint64_t m = (lo + hi) / 2u; /* <= 2^24 */
        u128 left = add(mul64(a, m * m), e2);
        u128 right = mul64(nb, m << (MBP_FIXED_FRAC_BITS + 1));
        if (le(mul64(a, m), sstar) && le(right, left)) {
            lo = m;
        } else {
            hi = m;
        }
    }
    *t = (mbp_scalar)lo;
    return true;
}
#else
/* Float: scaled by a power of two (exact) so that no product overflows, the nearest approach
 * tested by Lagrange's identity (|f|^2 |d|^2 - (f.d)^2 = |f x d|^2: no division, and no
 * cancellation where the segment grazes the sphere), the entry found by bisection on g <= 0. */
static float dot(const float *x, const float *y)
{
    float s = 0.0f;
    for (int k = 0; k < MBP_DIM; k++) {
        s += x[k] * y[k];
    }
    return s;
}

/* True when p0 + s d is inside the sphere (f, d, r2 as scaled). */
static bool inside_at(const float *f, const float *d, float r2, float s)
{
    float v[MBP_DIM];
    for (int k = 0; k < MBP_DIM; k++) {
        v[k] = f[k] + s * d[k];
    }
    return dot(v, v) <= r2;
}

static bool segment_sphere(const mbp_scalar *p0, const mbp_scalar *p1, const mbp_sphere *sp,
                           mbp_scalar *t)
{
    float f[MBP_DIM], d[MBP_DIM], g[MBP_DIM], m = sp->r;
    for (int k = 0; k < MBP_DIM; k++) {
        f[k] = p0[k] - sp->c[k];
        d[k] = p1[k] - p0[k];
        g[k] = p1[k] - sp->c[k];
        float mk = f[k] < 0 ? -f[k] : f[k];
        float dk = d[k] < 0 ? -d[k] : d[k];
        float gk = g[k] < 0 ? -g[k] : g[k];
        mk = mk > dk ? mk : dk;
        mk = mk > gk ? mk : gk;
        m = m > mk ? m : mk;
    }
    /* Below 2^30 after scaling (coordinates are within 2^60): squares and their products stay
     * below 2^124. */
    float sc = m > 1073741824.0f ? 2.3283064365386963e-10f : 1.0f; /* 2^30, 2^-32 */
    for (int k = 0; k < MBP_DIM; k++) {
        f[k] *= sc;
        d[k] *= sc;
        g[k] *= sc;
    }
    float r = sp->r * sc, r2 = r * r;
    *t = 0.0f;
    if (dot(f, f) <= r2) {
        return true;
    }
    float a = dot(d, d), nb = -dot(f, d);
    if (!(nb > 0.0f)) {
        return false;
    }
    float smax = 1.0f;
    if (nb >= a) {
        if (dot(g, g) > r2) {
            return false;
        }
    } else {
#if MBP_DIM == 2
        float x = f[0] * d[1] - f[1] * d[0], x2 = x * x;
#else
        float x0 = f[1] * d[2] - f[2] * d[1], x1 = f[2] * d[0] - f[0] * d[2];
        float x2 = f[0] * d[1] - f[1] * d[0];
        x2 = x0 * x0 + x1 * x1 + x2 * x2;
#endif
        if (x2 > a * r2) {
            return false;
        }
        smax = nb / a;
    }
    /* lo stays outside, hi the nearest approach or the end: 24 halvings reach float's step. */
    float lo = 0.0f, hi = smax;
    for (int n = 0; n < 24; n++) {
        float mid = 0.5f * (lo + hi);
        if (inside_at(f, d, r2, mid)) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    *t = lo;
    return true;
}
#endif
#endif /* MBP_WITH_SPHERES */

static void q_test(query *q, uint16_t i)
{
    const mbp_world *w = q->w;
    if ((w->category[i] & q->mask) == 0u) {
        return;
    }
    bool in;
    mbp_scalar t = 0;
#if MBP_WITH_SPHERES
    /* A fast body's volume is its bound of the step (a box), as for its pairs. */
    bool sphere = (w->flags[i] & (MBP__SPHERE | MBP__FAST)) == MBP__SPHERE;
#else
    bool sphere = false;
#endif
    switch (q->kind) {
    case Q_BOX:
        in = mbp_aabb_overlap(q->box, &w->box[i]);
#if MBP_WITH_SPHERES
        in = in && (!sphere || mbp_sphere_aabb_overlap(&w->sphere[i], q->box));
#endif
        break;
    case Q_POINT:
        in = mbp_aabb_contains_point(&w->box[i], q->p0);
#if MBP_WITH_SPHERES
        in = in && (!sphere || mbp_sphere_contains_point(&w->sphere[i], q->p0));
#endif
        break;
    case Q_SPHERE:
        in = mbp_sphere_aabb_overlap(q->s, &w->box[i]);
#if MBP_WITH_SPHERES
        in = in && (!sphere || mbp_sphere_overlap(&w->sphere[i], q->s));
#endif
        break;
    default:
        in = mbp_segment_aabb(q->p0, q->p1, &w->box[i], &t);
#if MBP_WITH_SPHERES
        in = in && (!sphere || segment_sphere(q->p0, q->p1, &w->sphere[i], &t));
#endif
        break;
    }
    (void)sphere;
#if MBP__SHAPES
    /* Oriented boxes, k-DOPs, capsules: box, point (q->box is the point's box) and sphere
     * queries test the shape itself; rays test its box. */
    if (in && q->kind != Q_RAY && (w->flags[i] & (MBP__SHAPE | MBP__FAST)) == MBP__SHAPE) {
        if (q->kind == Q_SPHERE) {
            const mbp_shape_slot *e = &w->shapes[w->shape_of[i] - 1u];
            in = mbp__overlap(e->kind, &e->u, MBP_SHAPE_SPHERE, q->s);
        } else {
            in = mbp__shape_box(w, i, q->box);
        }
    }
#endif
    if (!in) {
        return;
    }
    mbp_hit hit = {i, t};
    if (q->count < q->cap) {
        if (q->kind == Q_RAY) {
            q->hits[q->count] = hit;
        } else {
            q->out[q->count] = i;
        }
    } else if (q->cap != 0u) {
        /* Full: keep the cap smallest results, so that what a truncated query returns does not
         * depend on the backend's visiting order. The buffer becomes a max-heap on the first
         * result that does not fit; a result smaller than the largest kept replaces it. */
        if (q->kind == Q_RAY) {
            if (q->count == q->cap) {
                mbp__heapify_hits(q->hits, q->cap);
            }
            mbp__keep_hit(q->hits, q->cap, &hit);
        } else {
            if (q->count == q->cap) {
                mbp__heapify_u16(q->out, q->cap);
            }
            mbp__keep_u16(q->out, q->cap, i);
        }
    }
    q->count++;
}

/* Bodies moved since the last update are tested from the dirty list, not the backend's view. */
static void q_visit(void *ctx, uint16_t i)
{
    query *q = (query *)ctx;
    if (mbp__active(q->w, i) && (q->w->flags[i] & MBP__DIRTY) == 0u) {
        q_test(q, i);
    }
}

static mbp_status run_query(query *q, uint32_t *count)
{
    const mbp_world *w = q->w;
    mbp__backend_query(w, q->box, q_visit, q);
    for (uint32_t d = 0; d < w->dirty_count; d++) {
        if (mbp__active(w, w->dirty[d])) {
            q_test(q, w->dirty[d]);
        }
    }
    uint32_t n = q->count < q->cap ? q->count : q->cap;
    if (q->kind == Q_RAY) {
        mbp__sort_hits(q->hits, n);
    } else {
        mbp__sort_u16(q->out, n);
    }
    *count = q->count;
    return q->count > q->cap ? MBP_E_TRUNCATED : MBP_OK;
}

mbp_status mbp_query_box(const mbp_world *w, const mbp_aabb *box, uint16_t mask, uint16_t *out,
                         uint32_t cap, uint32_t *count)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(box != NULL && count != NULL && (out != NULL || cap == 0u));
    mbp_status st = mbp_aabb_check(box);
    if (st != MBP_OK) {
        return st;
    }
    query q = {w, Q_BOX, box, NULL, NULL, NULL, mask, out, NULL, cap, 0u};
    return run_query(&q, count);
}

static mbp_status point_box(const mbp_scalar p[MBP_DIM], mbp_aabb *box)
{
    for (int k = 0; k < MBP_DIM; k++) {
        box->min[k] = p[k];
        box->max[k] = p[k];
    }
    return mbp_aabb_check(box);
}

mbp_status mbp_query_point(const mbp_world *w, const mbp_scalar p[MBP_DIM], uint16_t mask,
                           uint16_t *out, uint32_t cap, uint32_t *count)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(p != NULL && count != NULL && (out != NULL || cap == 0u));
    mbp_aabb box;
    mbp_status st = point_box(p, &box);
    if (st != MBP_OK) {
        return st;
    }
    query q = {w, Q_POINT, &box, p, NULL, NULL, mask, out, NULL, cap, 0u};
    return run_query(&q, count);
}

mbp_status mbp_query_sphere(const mbp_world *w, const mbp_sphere *s, uint16_t mask,
                            uint16_t *out, uint32_t cap, uint32_t *count)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(s != NULL && count != NULL && (out != NULL || cap == 0u));
    mbp_status st = mbp_sphere_check(s);
    if (st != MBP_OK) {
        return st;
    }
    mbp_aabb box;
    mbp_sphere_aabb(s, &box);
    query q = {w, Q_SPHERE, &box, NULL, NULL, s, mask, out, NULL, cap, 0u};
    return run_query(&q, count);
}

static mbp_status segment_box(const mbp_scalar p0[MBP_DIM], const mbp_scalar p1[MBP_DIM],
                              mbp_aabb *box)
{
    mbp_aabb b1;
    mbp_status st = point_box(p0, box);
    if (st == MBP_OK) {
        st = point_box(p1, &b1);
    }
    if (st == MBP_OK) {
        mbp_aabb_union(box, &b1, box);
    }
    return st;
}

mbp_status mbp_raycast(const mbp_world *w, const mbp_scalar p0[MBP_DIM],
                       const mbp_scalar p1[MBP_DIM], uint16_t mask, mbp_hit *out, uint32_t cap,
                       uint32_t *count)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(p0 != NULL && p1 != NULL && count != NULL && (out != NULL || cap == 0u));
    mbp_aabb box;
    mbp_status st = segment_box(p0, p1, &box);
    if (st != MBP_OK) {
        return st;
    }
    query q = {w, Q_RAY, &box, p0, p1, NULL, mask, NULL, out, cap, 0u};
    return run_query(&q, count);
}

mbp_status mbp_raycast_first(const mbp_world *w, const mbp_scalar p0[MBP_DIM],
                             const mbp_scalar p1[MBP_DIM], uint16_t mask, mbp_hit *out,
                             bool *found)
{
    MBP__CHECK_WORLD(w);
    MBP__ASSERT(p0 != NULL && p1 != NULL && out != NULL && found != NULL);
    mbp_aabb box;
    mbp_status st = segment_box(p0, p1, &box);
    if (st != MBP_OK) {
        return st;
    }
    query q = {w, Q_RAY, &box, p0, p1, NULL, mask, NULL, out, 1u, 0u};
    uint32_t n;
    (void)run_query(&q, &n); /* MBP_E_TRUNCATED past one hit: hits[0] is the smallest */
    *found = n != 0u;
    return MBP_OK;
}

