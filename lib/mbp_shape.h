/* SPDX-License-Identifier: MIT */
/* mbp_shape.h: what the shape files share (not for users): the separating-axis machinery.
 *
 * The tests
 * ---------
 * Two convex shapes are apart if and only if some axis L separates their projections, and any
 * axis that does is a proof, however it was found. So every test between shapes other than the
 * box and sphere ones of mbp_volume.c is written the same way: a short list of candidate axes,
 * and for each the projection of both shapes onto it, computed so that it always holds the true
 * projection. Such a test can only err towards "overlap"; it is exact when the list holds, for
 * every way the shapes can be apart, the axis along which they are farthest apart:
 *   - face normals of the boxes, oriented boxes and k-DOPs;
 *   - in 3D, cross products of their edge directions with each other and with a segment;
 *   - for spheres and capsules, the direction between the closest features: from a point to its
 *     clamp into a box (in the box's frame), between two end points, the perpendicular from a
 *     point to a line (built as d x ((p - a) x d)), from a point to a k-DOP vertex or edge.
 * The file of each pair says which axes it tries and whether the list is complete.
 *
 * A shape's projection is an interval [lo, hi] of (x - o).L over its "core" (a box, an oriented
 * box, a k-DOP, a segment or a point) relative to a reference point o, plus a radius r swept
 * around the core (spheres, capsules) that adds r|L| on both sides.
 *
 * Fixed point: the ranges (see mbp_scalar.h for the coordinates)
 * --------------------------------------------------------------
 * Coordinates are within +-(2^30 - 1), so a difference of two fits int32 (|d| <= 2^31 - 2), and
 * so do extents (h <= 2^30 - 1, a box's width max - min <= 2^31 - 2). Rotation entries are Q30,
 * |u| <= 2^30 (1 + 2^-10) (checked at the door).
 *   - An axis L is an int32 vector whose largest component is in [2^27, 2^28] (mbp__axis_set()
 *     scales any int64 vector there), so |L| < 2^28 sqrt(3) < 2^29.
 *   - A point's projection (p - o).L: three products below 2^31 * 2^28: |.| < 3 * 2^59.
 *   - A frame's extent along L: u_i.L = n / 2^30 with n exact in int64 (|n| < 2^59.6), rounded
 *     down and up to int32 nl <= nh; the least and largest of t * nl, t * nh for t in
 *     {lo_i, hi_i} hold the true range of t u_i.L (32 x 32 bit products, each below 2^60.6; an
 *     oriented box's three below 2^61.2 together, a box's below 2^59.6). So a whole projection
 *     stays below 2^62, and the rounding widens it by under 2^-28 raw units per raw unit of
 *     extent.
 *   - The radius term r |L|, with |L| an integer square root rounded up: below 2^31 * 2^29.
 *     A separation test compares lo_b > hi_a + r |L|: below 2^62.1 on both sides.
 *   - Local coordinates in a frame (axis construction only), scaled by 2^30: three products below
 *     2^30 (1 + 2^-10) * 2^31, so |t| < 1.51 * 2^62. Cross products take inputs scaled down to
 *     |.| <= 2^30 first (mbp__wnorm()), so each component is below 2^61.
 *   - 3D k-DOP against a box or k-DOP (mbp_kdop_vs.c, meet()): a box's diagonal bounds are sums of
 *     three coordinates, below 3 * 2^30; the intersection's bounds, once they do not cross, lie
 *     between the k-DOP's, so they are coordinates again, and tightening them sums three terms
 *     of at most 4 (2^30 - 1) (in doubled units, exact).
 *   - 3D k-DOP vertices (mbp_kdop_verts.c): relative to the centre c of the k-DOP's
 *     box (|c| < 2^30), with the diagonal bounds clamped into the box's, every bound b is within
 *     3 (2^30 - 1). A vertex is (1/d) sum_i f_i b_i e_i over 3 of them, d in {1, 2}, |f_i| <= 2,
 *     e_i a 0/+-1 edge direction: doubled, an exact integer, a candidate's coordinates below
 *     2^34.6 and its diagonal sums below 2^36.2; a vertex (inside the box) has doubled
 *     coordinates within 2^31 - 2, kept as int32. Its projection 2v.L: three products below
 *     2^31 * 2^28, so below 3 * 2^59; halved (rounded outwards) and shifted by (c - o).L
 *     (below 3 * 2^59), a k-DOP's projection stays below 2^61.
 *   - The k-DOP's own axes with its bounds as given: L = s n_j with s <= 2^28, times
 *     b - n_j.o with |n_j.o| <= 3 (2^30 - 1): below 2^60.
 *   - Choosing a k-DOP's nearest edge or vertex (coarse): the doubled points (below 2^33) are
 *     shifted down to below 2^20, so squared lengths stay below 2^44, the parameter along an
 *     edge is a Q16 fraction (te 2^16 / dd, numerator below 2^60) and squared distances below
 *     2^48. The axis then comes from the points themselves (cross products, as above).
 * The only rounding is in the axes themselves (a direction off by about 2^-27) and the outward
 * rounding of projections; neither can hide an overlap. What they can do is report shapes apart
 * by less than about 2^-26 of their size plus a few raw units as touching.
 *
 * Float: the same code without scaling; projections use differences from o (small where it
 * matters), axes are scaled to a largest component of 1, and the radius test compares squares
 * (no square root), which can only overflow to +infinity when the shapes are far apart.
 */
#ifndef MBP_SHAPE_H
#define MBP_SHAPE_H

#include "mbp_internal.h"

#if MBP__SHAPES

#if MBP_SCALAR == MBP_FIXED
typedef int64_t mbp__w; /* a projection, a dot product, a wide vector component */
typedef int32_t mbp__ac; /* an axis component */
#define MBP__UNIT_BITS 30
#else
typedef float mbp__w;
typedef float mbp__ac;
#endif

/* An axis (not unit length). */
typedef struct {
    mbp__ac v[MBP_DIM];
} mbp__axis;

/* A box-like frame: the points o + sum_i t_i u[i] with lo[i] <= t_i <= hi[i]. An oriented box is
 * (c, rot, -h, h); an axis-aligned box is (min, identity, 0, max - min). */
typedef struct {
    mbp_scalar o[MBP_DIM];
    mbp_unit u[MBP_DIM][MBP_DIM];
    mbp_scalar lo[MBP_DIM];
    mbp_scalar hi[MBP_DIM];
    uint8_t aligned; /* u is the identity */
} mbp__frame;

/* A k-DOP ready for projections: tight bounds (2D: doubled in fixed point, so that half units
 * stay exact), see mbp_kdop.c. */
typedef struct {
    mbp__w lo[MBP_KDOP_AXES];
    mbp__w hi[MBP_KDOP_AXES];
    mbp_scalar ref[MBP_DIM]; /* a point near it, the reference of projections */
} mbp__kprep;

/* A shape's core for projections. */
enum { MBP__P_FRAME = 1, MBP__P_SEG, MBP__P_KDOP };
typedef struct {
    uint8_t kind;
    mbp_scalar r; /* P_SEG: the radius; 0 otherwise */
    union {
        mbp__frame f;
        struct {
            mbp_scalar a[MBP_DIM];
            mbp_scalar b[MBP_DIM];
        } s;
        mbp__kprep k;
    } u;
} mbp__prep;

/* ---- mbp_sat.c ---- */

/* *L = a non-zero multiple of v (fixed: largest component scaled to [2^27, 2^28]; float: to 1).
 * False when v is zero: no axis. */
bool mbp__axis_set(mbp__axis *L, const mbp__w v[MBP_DIM]);
/* Scales v down (fixed: so every |component| <= 2^30; float: to a largest component of 1),
 * keeping its direction; the input to cross products. */
void mbp__wnorm(mbp__w v[MBP_DIM]);
#if MBP_DIM == 3
/* out = a x b after mbp__wnorm() of copies of both. */
void mbp__wcross(const mbp__w a[3], const mbp__w b[3], mbp__w out[3]);
#endif
/* v = p - q. */
void mbp__wdiff(const mbp_scalar *p, const mbp_scalar *q, mbp__w v[MBP_DIM]);
/* The projection of x onto L relative to o: (x - o).L, exact. */
mbp__w mbp__proj(const mbp__axis *L, const mbp_scalar *x, const mbp_scalar *o);
/* [*lo, *hi] holds the projection of the shape's core onto L relative to o. */
void mbp__span(const mbp__prep *p, const mbp__axis *L, const mbp_scalar *o, mbp__w *lo,
               mbp__w *hi);
/* True when L separates a and b (with their radii). */
bool mbp__apart(const mbp__prep *a, const mbp__prep *b, const mbp__axis *L, const mbp_scalar *o);
/* The same from the spans of the cores, r the sum of the radii (r|L| is added between them). */
bool mbp__apart_spans(mbp__w alo, mbp__w ahi, mbp__w blo, mbp__w bhi, mbp_scalar r,
                      const mbp__axis *L);
/* True when the axis made from v (if v is not zero) separates a and b. */
bool mbp__apart_v(const mbp__prep *a, const mbp__prep *b, const mbp__w v[MBP_DIM],
                  const mbp_scalar *o);

void mbp__prep_box(mbp__prep *p, const mbp_aabb *b);
void mbp__prep_seg(mbp__prep *p, const mbp_scalar *a, const mbp_scalar *b, mbp_scalar r);
#if MBP_WITH_OBB
void mbp__prep_obb(mbp__prep *p, const mbp_obb *o);
#endif

/* Frame f's local coordinates of point x (fixed: scaled by 2^30). */
void mbp__frame_local(const mbp__frame *f, const mbp_scalar *x, mbp__w t[MBP_DIM]);
/* The world vector sum_i loc[i] u[i] (loc is scaled down first, so it is changed). */
void mbp__frame_world(const mbp__frame *f, mbp__w loc[MBP_DIM], mbp__w out[MBP_DIM]);
/* In f's local coordinates (as mbp__frame_local()): its bounds on axis i. */
mbp__w mbp__frame_lo(const mbp__frame *f, int i);
mbp__w mbp__frame_hi(const mbp__frame *f, int i);

/* The pair tests built on it (each file's comment says which axes and how exact). */
bool mbp__frame_frame(const mbp__prep *a, const mbp__prep *b);   /* mbp_obb.c */
bool mbp__seg_frame(const mbp__prep *s, const mbp__prep *f);     /* mbp_sat.c */
bool mbp__seg_seg(const mbp__prep *a, const mbp__prep *b);       /* mbp_capsule.c */

/* ---- mbp_kdop.c, mbp_kdop_vs.c ---- */
#if MBP_WITH_KDOP
/* p = k ready for the tests: in 2D tightened first (exact, and the vertices need it), in 3D
 * taken as given (the 3D tests are exact with any bounds; the world stores k-DOPs tightened). */
void mbp__prep_kdop(mbp__prep *p, const mbp_kdop *k);
#if MBP_DIM == 2
void mbp__kdop_span(const mbp__kprep *k, const mbp__axis *L, const mbp_scalar *o, mbp__w *lo,
                    mbp__w *hi);
#endif
/* The k-DOP k against any other prepared shape x (3D: exact against a box, a k-DOP or an
 * oriented box; conservative against a sphere or a capsule). */
bool mbp__kdop_vs(const mbp__prep *k, const mbp__prep *x);
mbp_status mbp__kdop_check(const mbp_kdop *k);
void mbp__kdop_aabb(const mbp_kdop *k, mbp_aabb *out);
#endif

#if MBP_WITH_OBB
mbp_status mbp__obb_check(const mbp_obb *o);
void mbp__obb_aabb(const mbp_obb *o, mbp_aabb *out);
#endif
#if MBP_WITH_CAPSULE
mbp_status mbp__capsule_check(const mbp_capsule *c);
void mbp__capsule_aabb(const mbp_capsule *c, mbp_aabb *out);
#endif
#if MBP_WITH_RSS
mbp_status mbp__rss_check(const mbp_rss *s);
void mbp__rss_aabb(const mbp_rss *s, mbp_aabb *out);
/* The RSS s against a prepared shape of another kind, and two RSS (mbp_rss.c: exact). */
bool mbp__rss_vs(const mbp_rss *s, const mbp__prep *x);
bool mbp__rss_rss(const mbp_rss *a, const mbp_rss *b);
#endif

/* A coordinate's check, as mbp_volume.c's: MBP_E_BADBOX for NaN or infinity, MBP_E_RANGE. */
mbp_status mbp__scalar_check(mbp_scalar s);

#endif /* MBP__SHAPES */

#endif /* MBP_SHAPE_H */
