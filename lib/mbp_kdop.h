/* SPDX-License-Identifier: MIT */
/* mbp_kdop.h: what the two parts of the k-DOP share (internal): the axes, the projection of a
 * point onto one, tightening, and halving doubled values. mbp_kdop.c: the k-DOP itself (the
 * check, tightening, the tight box, the fit to points, the prepared k-DOP); mbp_kdop_vs.c: its
 * tests against every shape; mbp_kdop_verts.c (3D): the vertices those tests project.
 */
#ifndef MBP_KDOP_H
#define MBP_KDOP_H

#include "mbp_shape.h"

#if MBP_WITH_KDOP

/* The axes' normals (not unit: a diagonal bound is a sum of coordinates). */
#if MBP_DIM == 2
static const int8_t mbp__kdop_normal[MBP_KDOP_AXES][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
#else
static const int8_t mbp__kdop_normal[MBP_KDOP_AXES][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1},
                                                         {1, 1, 1}, {1, 1, -1}, {1, -1, 1},
                                                         {-1, 1, 1}};
#endif

/* The projection of point p onto axis j (a sum of up to three coordinates). */
mbp__w mbp__kdop_axis_of(const mbp_scalar *p, int j);

/* Tight bounds of k, doubled: lo2[j] = 2 min, hi2[j] = 2 max over the k-DOP. */
void mbp__kdop_tighten2(const mbp_kdop *k, mbp__w lo2[MBP_KDOP_AXES], mbp__w hi2[MBP_KDOP_AXES]);


/* Halves of doubled values, rounded outwards (down or up). */
static inline mbp__w mbp__kdop_halve(mbp__w x, bool up)
{
#if MBP_SCALAR == MBP_FIXED
    mbp__w odd = x % 2 != 0 ? 1 : 0;
    return (up ? x + odd : x - odd) / 2;
#else
    (void)up;
    return x * 0.5f;
#endif
}

#endif /* MBP_WITH_KDOP */

#endif /* MBP_KDOP_H */
