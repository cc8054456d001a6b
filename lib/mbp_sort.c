/* SPDX-License-Identifier: MIT */
/* mbp_sort.c: one heap sort for the four arrays the library orders, and the same max-heap for a
 * query that keeps only its smallest results.
 *
 * Heap sort because it is in place, O(n log n) in the worst case and needs no recursion or
 * stack: a frame with a burst of events or a query with many hits stays bounded. The element
 * kind is a switch inside less() and swap(), so there is one sift-down to read and test. Pairs
 * carry their flag bytes and, with MBP_PAIR_USER, their user slots along.
 */
#include "mbp_bp.h"

typedef enum { K_PAIRS, K_U16, K_HITS } kind;

typedef struct {
    kind k;
    void *a;       /* the array */
    uint8_t *pay;  /* K_PAIRS: payload bytes moved along with the pairs, or NULL */
#if MBP_PAIR_USER
    uint32_t *user; /* K_PAIRS: the pairs' user slots, moved along with them too, or NULL */
#endif
} sortable;

/* Hits by t, then by index. */
static bool hit_before(const mbp_hit *a, const mbp_hit *b)
{
    return a->t < b->t || (!(b->t < a->t) && a->index < b->index);
}

static bool less(const sortable *s, uint32_t i, uint32_t j)
{
    switch (s->k) {
    case K_PAIRS: {
        const mbp_pair *v = (const mbp_pair *)s->a;
        return mbp__pkey(&v[i]) < mbp__pkey(&v[j]);
    }
    case K_U16: {
        const uint16_t *v = (const uint16_t *)s->a;
        return v[i] < v[j];
    }
    default: {
        const mbp_hit *v = (const mbp_hit *)s->a;
        return hit_before(&v[i], &v[j]);
    }
    }
}

static void swap(const sortable *s, uint32_t i, uint32_t j)
{
    switch (s->k) {
    case K_PAIRS: {
        mbp_pair *v = (mbp_pair *)s->a;
        mbp_pair t = v[i];
        v[i] = v[j];
        v[j] = t;
        if (s->pay != NULL) {
            uint8_t p = s->pay[i];
            s->pay[i] = s->pay[j];
            s->pay[j] = p;
        }
#if MBP_PAIR_USER
        if (s->user != NULL) {
            uint32_t u = s->user[i];
            s->user[i] = s->user[j];
            s->user[j] = u;
        }
#endif
        break;
    }
    case K_U16: {
        uint16_t *v = (uint16_t *)s->a;
        uint16_t t = v[i];
        v[i] = v[j];
        v[j] = t;
        break;
    }
    default: {
        mbp_hit *v = (mbp_hit *)s->a;
        mbp_hit t = v[i];
        v[i] = v[j];
        v[j] = t;
        break;
    }
    }
}

static void sift_down(const sortable *s, uint32_t root, uint32_t n)
{
    for (;;) {
        uint32_t child = 2u * root + 1u;
        if (child >= n) {
            return;
        }
        if (child + 1u < n && less(s, child, child + 1u)) {
            child++;
        }
        if (!less(s, root, child)) {
            return;
        }
        swap(s, root, child);
        root = child;
    }
}

static void heapify(const sortable *s, uint32_t n)
{
    for (uint32_t i = n / 2u; i-- > 0u;) {
        sift_down(s, i, n);
    }
}

/* Below this many elements, insertion sort: fewer steps than the heap (a frame's events are
 * usually a handful), and its worst case, SMALL_SORT^2 / 2 steps, is still a constant. */
#define SMALL_SORT 16u

static void heap_sort(const sortable *s, uint32_t n)
{
    if (n <= SMALL_SORT) {
        for (uint32_t i = 1u; i < n; i++) {
            for (uint32_t j = i; j > 0u && less(s, j, j - 1u); j--) {
                swap(s, j, j - 1u);
            }
        }
        return;
    }
    heapify(s, n);
    for (uint32_t end = n - 1u; end > 0u; end--) {
        swap(s, 0u, end);
        sift_down(s, 0u, end);
    }
}

void mbp__sort_pairs(mbp_pair *p, uint8_t *payload, uint32_t n)
{
    sortable s = {.k = K_PAIRS, .a = p, .pay = payload};
    heap_sort(&s, n);
}

#if MBP_PAIR_USER
void mbp__sort_pairs_user(mbp_pair *p, uint8_t *payload, uint32_t *user, uint32_t n)
{
    sortable s = {.k = K_PAIRS, .a = p, .pay = payload, .user = user};
    heap_sort(&s, n);
}
#endif

void mbp__sort_u16(uint16_t *v, uint32_t n)
{
    sortable s = {.k = K_U16, .a = v};
    heap_sort(&s, n);
}

void mbp__sort_hits(mbp_hit *h, uint32_t n)
{
    sortable s = {.k = K_HITS, .a = h};
    heap_sort(&s, n);
}

void mbp__heapify_u16(uint16_t *v, uint32_t n)
{
    sortable s = {.k = K_U16, .a = v};
    heapify(&s, n);
}

void mbp__heapify_hits(mbp_hit *h, uint32_t n)
{
    sortable s = {.k = K_HITS, .a = h};
    heapify(&s, n);
}

void mbp__keep_u16(uint16_t *v, uint32_t n, uint16_t x)
{
    if (x < v[0]) {
        sortable s = {.k = K_U16, .a = v};
        v[0] = x;
        sift_down(&s, 0u, n);
    }
}

void mbp__keep_hit(mbp_hit *h, uint32_t n, const mbp_hit *x)
{
    if (hit_before(x, &h[0])) {
        sortable s = {.k = K_HITS, .a = h};
        h[0] = *x;
        sift_down(&s, 0u, n);
    }
}
