/* SPDX-License-Identifier: MIT */
/* mbp_query.c: box, point and ray queries over the bodies as they are now.
 *
 * The backend walks its own structure (bodies as of the last update); bodies added or moved
 * since then are tested from the world's dirty list. A truncated query keeps the cap smallest
 * results, so what it returns does not depend on the backend's visiting order.
 */
#include "mbp_internal.h"

typedef enum { Q_BOX, Q_POINT, Q_RAY } qkind;

typedef struct {
    const mbp_world *w;
    qkind kind;
    const mbp_aabb *box;    /* Q_BOX: the query box; all kinds: the bound given to the backend */
    const mbp_scalar *p0;   /* Q_POINT: the point; Q_RAY: the start */
    const mbp_scalar *p1;   /* Q_RAY: the end */
    uint16_t mask;
    uint16_t *out;          /* Q_BOX, Q_POINT */
    mbp_hit *hits;          /* Q_RAY */
    uint32_t cap;
    uint32_t count;
} query;

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
    default:
        (void)sphere;
        in = mbp_segment_aabb(q->p0, q->p1, &w->box[i], &t);
        break;
    }
#if MBP__SHAPES
    /* Oriented boxes, k-DOPs, capsules: box and point queries (q->box is the point's box) test
     * the shape itself; rays test its box, as for spheres. */
    if (in && q->kind != Q_RAY && (w->flags[i] & (MBP__SHAPE | MBP__FAST)) == MBP__SHAPE) {
        in = mbp__shape_box(w, i, q->box);
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
    query q = {w, Q_BOX, box, NULL, NULL, mask, out, NULL, cap, 0u};
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
    query q = {w, Q_POINT, &box, p, NULL, mask, out, NULL, cap, 0u};
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
    query q = {w, Q_RAY, &box, p0, p1, mask, NULL, out, cap, 0u};
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
    query q = {w, Q_RAY, &box, p0, p1, mask, NULL, out, 1u, 0u};
    uint32_t n;
    (void)run_query(&q, &n); /* MBP_E_TRUNCATED past one hit: hits[0] is the smallest */
    *found = n != 0u;
    return MBP_OK;
}

