/* SPDX-License-Identifier: MIT */
/* mbp_heap.h: the heap sort, written once for every array the library orders by it (internal):
 * a query's results (mbp_sort.c: the sift), the sweep's order when its insertion sort gives up
 * (mbp_sweep.c), the SAP's endpoints in a rebuild (mbp_sap.c) and its jumpers in a merge
 * (mbp_sap_jump.c).
 *
 * Heap sort because it is in place, O(n log n) in the worst case and needs no recursion or
 * stack. The array is the caller's, of any layout: the sort sees it as a pointer and reaches
 * entries through two functions of the caller's, before(a, i, j) (entry i orders before entry j)
 * and swap(a, i, j). Both are constants where the caller calls and the sort is inlined there
 * (MBP__HOT), so the compiler calls them directly and inlines them: each caller gets the sort it
 * would write by hand, with no call through a pointer per comparison (a rebuild of the SAP sorts
 * every endpoint of every axis). The frame's events keep a sort of their own (mbp_sort.c: moves
 * through a hole, on 32-bit keys).
 */
#ifndef MBP_HEAP_H
#define MBP_HEAP_H

#include "mbp_bp.h"

/* Entry i of the array a orders before entry j. */
typedef bool (*mbp__heap_before)(const void *a, uint32_t i, uint32_t j);
/* Entries i and j of the array a change places. */
typedef void (*mbp__heap_swap)(void *a, uint32_t i, uint32_t j);

/* Entry root of a[0..n) moves down until neither child orders after it. Below root, a[] must
 * be a max-heap already: no entry orders before either of its children (entry c's children are
 * 2c + 1 and 2c + 2). */
MBP__HOT void mbp__heap_sift(void *a, uint32_t root, uint32_t n, mbp__heap_before before,
                             mbp__heap_swap swap)
{
    uint32_t c = 2u * root + 1u;
    while (c < n) {
        if (c + 1u < n && before(a, c, c + 1u)) {
            c++;
        }
        if (!before(a, root, c)) {
            break;
        }
        swap(a, root, c);
        root = c;
        c = 2u * root + 1u;
    }
}

/* a[0..n) in order by before: the heap is built, then its largest goes to the end n - 1 times.
 * One loop does both, so that the sift is inlined once. */
MBP__HOT void mbp__heap_sort(void *a, uint32_t n, mbp__heap_before before, mbp__heap_swap swap)
{
    uint32_t end = n, i = n / 2u;
    while (end > 1u) {
        uint32_t root;
        if (i > 0u) {
            i--; /* building the heap */
            root = i;
        } else {
            end--; /* the largest to the end */
            swap(a, 0u, end);
            root = 0u;
        }
        mbp__heap_sift(a, root, end, before, swap);
    }
}

#endif
