/* SPDX-License-Identifier: MIT */
/* ref.c: the two reference methods of make bench-peers.
 *
 * brute: every pair of live bodies, x compared inline, then the shared test; the check's
 *   reference.
 * floor: a plain single-axis sort-and-sweep, the figure any structure has to beat to be worth
 *   its code: the live bodies in an array sorted on min x, re-sorted by insertion each frame
 *   (coherent motion leaves it nearly sorted), then a forward scan from each body over those
 *   whose min x is at most its max x. No pair set, no events, no incremental state.
 */
#include "peers.h"

#include <stdlib.h>

typedef struct {
    uint32_t live;
    float *key;   /* min x of the body at ord[i] (floor) */
    uint16_t *ord; /* the live ids */
    uint32_t *pos; /* brute: id -> index in ord */
    size_t bytes;
} ref;

static void *ref_create(const peer_method *m, const bench_source *s)
{
    (void)m;
    ref *r = calloc(1u, sizeof *r);
    r->key = m->variant == 1 ? malloc(s->n * sizeof *r->key) : NULL;
    r->ord = malloc(s->n * sizeof *r->ord);
    r->pos = m->variant == 0 ? malloc(s->n * sizeof *r->pos) : NULL;
    r->bytes = sizeof *r + s->n * (sizeof *r->ord + (r->key ? sizeof *r->key : sizeof *r->pos));
    return r;
}

static void ref_add(void *x, uint32_t id)
{
    ref *r = x;
    if (r->pos != NULL) {
        r->pos[id] = r->live;
    } else {
        r->key[r->live] = g_box[id].min[0];
    }
    r->ord[r->live++] = (uint16_t)id;
}

static void ref_move(void *x, uint32_t id)
{
    (void)x;
    (void)id;
}

static void ref_remove(void *x, uint32_t id)
{
    ref *r = x;
    uint32_t i = 0u;
    if (r->pos != NULL) { /* brute: swap in the last */
        i = r->pos[id];
        r->ord[i] = r->ord[--r->live];
        r->pos[r->ord[i]] = i;
        return;
    }
    while (r->ord[i] != id) {
        i++;
    }
    for (r->live--; i < r->live; i++) { /* floor: keep the order */
        r->ord[i] = r->ord[i + 1u];
        r->key[i] = r->key[i + 1u];
    }
}

static void brute_update(void *x)
{
    (void)x;
}

/* Every pair's x extents compared here, the pairs that overlap on x through the shared test. */
static void brute_walk(void *x)
{
    const ref *r = x;
    for (uint32_t i = 0; i < r->live; i++) {
        const mbp_aabb *a = &g_box[r->ord[i]];
        for (uint32_t j = i + 1u; j < r->live; j++) {
            const mbp_aabb *b = &g_box[r->ord[j]];
            if (a->min[0] <= b->max[0] && b->min[0] <= a->max[0]) {
                peer_pair(r->ord[i], r->ord[j]);
            }
        }
    }
}

/* ---- the floor: about 40 lines ---- */

static void floor_update(void *x)
{
    ref *r = x;
    for (uint32_t i = 0; i < r->live; i++) {
        float k = g_box[r->ord[i]].min[0];
        uint16_t id = r->ord[i];
        uint32_t j = i;
        for (; j > 0u && r->key[j - 1u] > k; j--) {
            r->key[j] = r->key[j - 1u];
            r->ord[j] = r->ord[j - 1u];
        }
        r->key[j] = k;
        r->ord[j] = id;
    }
}

static void floor_walk(void *x)
{
    const ref *r = x;
    for (uint32_t i = 0; i < r->live; i++) {
        float hi = g_box[r->ord[i]].max[0];
        for (uint32_t j = i + 1u; j < r->live && r->key[j] <= hi; j++) {
            peer_pair(r->ord[i], r->ord[j]);
        }
    }
}

static size_t ref_bytes(void *x)
{
    return ((const ref *)x)->bytes;
}

static void ref_destroy(void *x)
{
    ref *r = x;
    free(r->key);
    free(r->ord);
    free(r->pos);
    free(r);
}

void peers_ref(peer_method *list, int *count)
{
    list[(*count)++] = (peer_method){"brute", "ref", ref_create, ref_add, ref_move, ref_remove,
                                     brute_update, brute_walk, ref_bytes, ref_destroy, 0};
    list[(*count)++] = (peer_method){"floor", "ref", ref_create, ref_add, ref_move, ref_remove,
                                     floor_update, floor_walk, ref_bytes, ref_destroy, 1};
}
