/* SPDX-License-Identifier: MIT */
/* mbp_sort.c: the heap sorts of the arrays the library orders, and the same max-heap for a
 * query that keeps only its smallest results.
 *
 * Heap sort because it is in place, O(n log n) in the worst case and needs no recursion or
 * stack: a frame with a burst of events or a query with many hits stays bounded. Pairs have a
 * sort of their own on their 32-bit keys, moving each element once per level (a hole, not
 * swaps), in two copies: a frame's events alone, and pairs that carry their flag bytes and, with
 * MBP_PAIR_USER, their user slots along. The rarer kinds (query results) share one copy of
 * mbp_heap.h's sift, the kind a switch inside less() and swap().
 */
#include "mbp_bp.h"
#include "mbp_heap.h"

typedef enum { K_U16, K_HITS } kind;

typedef struct {
    kind k;
    void *a; /* the array */
} sortable;

/* Hits by t, then by index. */
static bool hit_before(const mbp_hit *a, const mbp_hit *b)
{
    return a->t < b->t || (!(b->t < a->t) && a->index < b->index);
}

static bool less(const void *h, uint32_t i, uint32_t j)
{
    const sortable *s = (const sortable *)h;
    switch (s->k) {
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

static void swap(void *h, uint32_t i, uint32_t j)
{
    const sortable *s = (const sortable *)h;
    switch (s->k) {
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

/* Out of line: one copy of mbp_heap.h's sift for every use here (mbp__heap_sort() would inline a
 * second, 64 bytes more on the M4). */
static void sift_down(sortable *s, uint32_t root, uint32_t n)
{
    mbp__heap_sift(s, root, n, less, swap);
}

static void heapify(sortable *s, uint32_t n)
{
    for (uint32_t i = n / 2u; i-- > 0u;) {
        sift_down(s, i, n);
    }
}

/* Below this many elements, insertion sort: fewer steps than the heap (a frame's events are
 * usually a handful), and its worst case, SMALL_SORT^2 / 2 steps, is still a constant. */
#define SMALL_SORT 16u

static void heap_sort(sortable *s, uint32_t n)
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

/* ---- pairs ---- */

typedef struct {
    mbp_pair *p;
    uint8_t *pay; /* or NULL */
#if MBP_PAIR_USER
    uint32_t *user; /* or NULL */
#endif
} pairs;

/* One element out of the arrays, with its key. */
typedef struct {
    mbp_pair p;
    uint32_t key;
    uint8_t pay;
#if MBP_PAIR_USER
    uint32_t user;
#endif
} elem;

MBP__HOT elem get(const pairs *s, uint32_t i)
{
    elem e;
    e.p = s->p[i];
    e.key = mbp__pkey(&e.p);
    e.pay = s->pay != NULL ? s->pay[i] : 0u;
#if MBP_PAIR_USER
    e.user = s->user != NULL ? s->user[i] : 0u;
#endif
    return e;
}

MBP__HOT void set(const pairs *s, uint32_t i, const elem *e)
{
    s->p[i] = e->p;
    if (s->pay != NULL) {
        s->pay[i] = e->pay;
    }
#if MBP_PAIR_USER
    if (s->user != NULL) {
        s->user[i] = e->user;
    }
#endif
}

MBP__HOT void move(const pairs *s, uint32_t to, uint32_t from)
{
    s->p[to] = s->p[from];
    if (s->pay != NULL) {
        s->pay[to] = s->pay[from];
    }
#if MBP_PAIR_USER
    if (s->user != NULL) {
        s->user[to] = s->user[from];
    }
#endif
}

/* Puts x into the max-heap p[0..n) whose root, at hole, is free: the larger child moves up into
 * the hole until x is not below it. */
MBP__HOT void sift_pair(const pairs *s, uint32_t hole, uint32_t n, const elem *x)
{
    const mbp_pair *p = s->p;
    for (;;) {
        uint32_t child = 2u * hole + 1u;
        if (child >= n) {
            break;
        }
        uint32_t kc = mbp__pkey(&p[child]);
        if (child + 1u < n) {
            uint32_t k2 = mbp__pkey(&p[child + 1u]);
            if (kc < k2) {
                child++;
                kc = k2;
            }
        }
        if (x->key >= kc) {
            break;
        }
        move(s, hole, child);
        hole = child;
    }
    set(s, hole, x);
}


MBP__HOT void sort_in(const pairs *s, uint32_t n)
{
    if (n <= SMALL_SORT) {
        for (uint32_t i = 1u; i < n; i++) {
            elem x = get(s, i);
            uint32_t j = i;
            for (; j > 0u && mbp__pkey(&s->p[j - 1u]) > x.key; j--) {
                move(s, j, j - 1u);
            }
            set(s, j, &x);
        }
        return;
    }
    for (uint32_t i = n / 2u; i-- > 0u;) {
        elem x = get(s, i);
        sift_pair(s, i, n, &x);
    }
    for (uint32_t end = n - 1u; end > 0u; end--) {
        elem x = get(s, end); /* the last leaf leaves; the root, the largest, takes its place */
        move(s, end, 0u);
        sift_pair(s, 0u, end, &x);
    }
}

/* Two copies of the sort: pairs that carry flags or user slots (mbp_sort_pairs()), and a
 * frame's events, which carry nothing (mbp__sort_events()): there every element moves as one
 * word, with no test of what else to move, in about half the steps. Separate functions, so that
 * a program that never calls mbp_sort_pairs() links only the second. */
static void sort_pairs(const pairs *s, uint32_t n)
{
    sort_in(s, n);
}

/* Pairs p with their flags (or NULL), and no user slots. */
MBP__HOT pairs pairs_of(mbp_pair *p, uint8_t *payload)
{
#if MBP_PAIR_USER
    pairs s = {p, payload, NULL};
#else
    pairs s = {p, payload};
#endif
    return s;
}

void mbp__sort_events(mbp_pair *p, uint32_t n)
{
    pairs s = pairs_of(p, NULL);
    sort_in(&s, n);
}

void mbp__sort_pairs(mbp_pair *p, uint8_t *payload, uint32_t n)
{
    pairs s = pairs_of(p, payload);
    sort_pairs(&s, n);
}

#if MBP_PAIR_USER
void mbp__sort_pairs_user(mbp_pair *p, uint8_t *payload, uint32_t *user, uint32_t n)
{
    pairs s = {p, payload, user};
    sort_pairs(&s, n);
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
