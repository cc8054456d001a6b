/* SPDX-License-Identifier: MIT */
/* mbp_kdop_verts.h: the 3D k-DOP's vertices and the axes made from them (internal), shared by
 * the tests (mbp_kdop_vs.c: mbp__kdop_vs()) and the vertex code (mbp_kdop_verts.c: building the
 * vertices, exact projections, the edge crosses and the nearest-feature axes). 3D only.
 */
#ifndef MBP_KDOP_VERTS_H
#define MBP_KDOP_VERTS_H

#include "mbp_kdop.h"

#if MBP_WITH_KDOP && MBP_DIM == 3

/* A 14-DOP's vertices, for exact projections onto any axis: every vertex is where 3 bound
 * planes of independent axes cross, v = (1/d) sum_i f_i b_i e_i (k_tri), so its coordinates
 * are halves (fixed point: kept doubled, exact). Built once per test: the 29 triples, 8 choices
 * of bounds each, keeping the points that satisfy every bound (the k-DOP's vertices whatever
 * its bounds, tight or not). A vertex where more than 3 planes meet comes from several
 * triples: the list keeps repeats until it is full, then merges them (a 3D polytope with 14
 * faces has at most 2 * 14 - 4 = 24 vertices, so MBP__KV_MAX = 32 always has room). Fixed
 * point (mbp_shape.h): relative to the centre c of the k-DOP's box, the diagonal bounds clamped
 * into the box's (the same k-DOP), every bound is within 3 (2^30 - 1), a candidate's doubled
 * coordinates below 2^35 and a vertex's (in the box) within 2^31 - 2: int32. */
#if MBP_SCALAR == MBP_FIXED
typedef int32_t mbp__kv_c;
#else
typedef float mbp__kv_c;
#endif
#define MBP__KV_MAX 32
typedef struct {
    mbp_scalar c[3];
    int n;
    mbp__kv_c v[MBP__KV_MAX][3];
    uint16_t on[MBP__KV_MAX]; /* the bound planes through it: bit 2j (min of axis j),
                               * 2j + 1 (max) */
} mbp__kverts;

/* Closest features, found coarsely (they only choose an axis; the axis itself is exact). */
typedef struct {
    int sh; /* fixed point: values are shifted down by sh, to below 2^20 */
} mbp__coarse;

/* The centre of the k-DOP's box (fixed point: rounded down). */
void mbp__kdop_centre(const mbp__kprep *q, mbp_scalar c[3]);

/* Builds the k-DOP's vertices into *kv (relative to its box's centre, doubled). */
void mbp__kverts_build(const mbp__kprep *q, mbp__kverts *kv);

/* True when the axis made from v (if not zero) separates the k-DOP and x (o: x's reference). */
bool mbp__kverts_apart(const mbp__kverts *kv, const mbp__prep *x, const mbp__w v[3],
                       const mbp_scalar *o);

/* True when one of the crosses of d with the k-DOP's 9 edge directions separates them. */
bool mbp__kverts_crosses_apart(const mbp__kverts *kv, const mbp__prep *x, const mbp__w d[3],
                               const mbp_scalar *o);

/* The coarse scale for the vertices and the points P, Q (doubled, relative to the centre). */
void mbp__kverts_coarse(mbp__coarse *c, const mbp__kverts *kv, const mbp__w P[3],
                        const mbp__w Q[3]);

/* The axis from the edge nearest to P (false: none), and from the vertex nearest to the inside
 * of segment A-B, perpendicular to it (false: none). */
bool mbp__kverts_edge_axis(const mbp__kverts *kv, const mbp__coarse *c, const mbp__w P[3],
                           mbp__w v[3]);
bool mbp__kverts_vertex_seg_axis(const mbp__kverts *kv, const mbp__coarse *c, const mbp__w A[3],
                                 const mbp__w B[3], mbp__w v[3]);

#endif /* MBP_WITH_KDOP && MBP_DIM == 3 */

#endif /* MBP_KDOP_VERTS_H */
