/* SPDX-License-Identifier: MIT */
/* mbp_obb.c: oriented boxes: the check, the tight box, and the test between two box-like frames
 * (oriented box against oriented or axis-aligned box).
 *
 * Frame against frame: the separating axis test over the face normals of both (2 + 2 in 2D,
 * 3 + 3 in 3D) and, in 3D, the 9 cross products of an edge of one with an edge of the other:
 * 4 or 15 axes, the complete set for two boxes, so the test is exact for orthonormal rotations
 * (float: up to rounding; fixed point: up to the rounding of the axes, mbp_shape.h). Each
 * projection is the centre's plus the extents' (h_i |u_i.L|); in fixed point the extents are
 * exact products rounded outwards. With rows that are orthonormal only within the 2^-10 the
 * check allows, the face axes are slightly off the true face normals: never a missed overlap
 * (every axis is a valid axis for the shape the rows span), at most boxes apart by about 2^-10
 * of their size reported as touching.
 *
 * Rotation check: each entry within [-1 - 2^-10, 1 + 2^-10] (so that no product overflows), and
 * |u_i.u_j - (i == j)| <= 2^-10 for every pair of rows.
 */
#include "mbp_shape.h"

#if MBP_WITH_OBB

mbp_status mbp__obb_check(const mbp_obb *o)
{
    mbp_status st = MBP_OK;
    for (int i = 0; i < MBP_DIM; i++) {
        mbp_status a = mbp__scalar_check(o->c[i]);
        mbp_status b = mbp__scalar_check(o->h[i]);
        if (a == MBP_E_BADBOX || b == MBP_E_BADBOX) {
            return MBP_E_BADBOX;
        }
        if (a != MBP_OK || b != MBP_OK) {
            st = MBP_E_RANGE;
        } else if (o->h[i] < 0) {
            return MBP_E_BADBOX;
        }
    }
#if MBP_SCALAR == MBP_FIXED
    const int32_t emax = MBP_UNIT_ONE + (MBP_UNIT_ONE >> 10);
    for (int i = 0; i < MBP_DIM; i++) {
        for (int k = 0; k < MBP_DIM; k++) {
            if (o->rot[i][k] > emax || o->rot[i][k] < -emax) {
                return MBP_E_BADBOX;
            }
        }
    }
    for (int i = 0; i < MBP_DIM; i++) {
        for (int j = i; j < MBP_DIM; j++) {
            int64_t d = 0; /* Q60: three products below 2^60.01 */
            for (int k = 0; k < MBP_DIM; k++) {
                d += (int64_t)o->rot[i][k] * o->rot[j][k];
            }
            if (i == j) {
                d -= (int64_t)1 << 60;
            }
            if (d > ((int64_t)1 << 50) || d < -((int64_t)1 << 50)) {
                return MBP_E_BADBOX;
            }
        }
    }
#else
    const float tol = 1.0f / 1024.0f;
    for (int i = 0; i < MBP_DIM; i++) {
        for (int k = 0; k < MBP_DIM; k++) {
            float e = o->rot[i][k];
            if (!(e >= -1.0f - tol && e <= 1.0f + tol)) { /* NaN fails too */
                return MBP_E_BADBOX;
            }
        }
    }
    for (int i = 0; i < MBP_DIM; i++) {
        for (int j = i; j < MBP_DIM; j++) {
            float d = 0.0f;
            for (int k = 0; k < MBP_DIM; k++) {
                d += o->rot[i][k] * o->rot[j][k];
            }
            if (i == j) {
                d -= 1.0f;
            }
            if (!(d >= -tol && d <= tol)) {
                return MBP_E_BADBOX;
            }
        }
    }
#endif
    return st;
}

void mbp__obb_aabb(const mbp_obb *o, mbp_aabb *out)
{
    for (int k = 0; k < MBP_DIM; k++) {
#if MBP_SCALAR == MBP_FIXED
        /* sum_i ceil(h_i |u_ik|): each below 2^30 (1 + 2^-10); the sum below 2^31.6 */
        int64_t e = 0;
        for (int i = 0; i < MBP_DIM; i++) {
            int64_t u = o->rot[i][k] < 0 ? -(int64_t)o->rot[i][k] : o->rot[i][k];
            int64_t p = (int64_t)o->h[i] * u;
            e += (p >> 30) + ((p & 0x3FFFFFFF) != 0 ? 1 : 0);
        }
        int64_t lo = (int64_t)o->c[k] - e, hi = (int64_t)o->c[k] + e;
        out->min[k] = lo < -(int64_t)MBP_RANGE ? -MBP_RANGE : (mbp_scalar)lo;
        out->max[k] = hi > (int64_t)MBP_RANGE ? MBP_RANGE : (mbp_scalar)hi;
#else
        float e = 0.0f;
        for (int i = 0; i < MBP_DIM; i++) {
            float u = o->rot[i][k];
            e += o->h[i] * (u < 0.0f ? -u : u);
        }
        out->min[k] = mbp_add_sat(o->c[k], -e);
        out->max[k] = mbp_add_sat(o->c[k], e);
#endif
    }
}

bool mbp__frame_frame(const mbp__prep *a, const mbp__prep *b)
{
    const mbp__frame *fa = &a->u.f, *fb = &b->u.f;
    const mbp_scalar *o = fa->o;
    mbp__w v[MBP_DIM];
    for (int s = 0; s < 2; s++) { /* face normals of a, then of b */
        const mbp__frame *f = s == 0 ? fa : fb;
        for (int i = 0; i < MBP_DIM; i++) {
            for (int k = 0; k < MBP_DIM; k++) {
                v[k] = (mbp__w)f->u[i][k];
            }
            if (mbp__apart_v(a, b, v, o)) {
                return false;
            }
        }
    }
#if MBP_DIM == 3
    for (int i = 0; i < 3; i++) { /* edge of a x edge of b */
        for (int j = 0; j < 3; j++) {
            mbp__w ea[3], eb[3];
            for (int k = 0; k < 3; k++) {
                ea[k] = (mbp__w)fa->u[i][k];
                eb[k] = (mbp__w)fb->u[j][k];
            }
            mbp__wcross(ea, eb, v);
            if (mbp__apart_v(a, b, v, o)) {
                return false;
            }
        }
    }
#endif
    return true;
}

#endif /* MBP_WITH_OBB */
