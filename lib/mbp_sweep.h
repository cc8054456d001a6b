/* SPDX-License-Identifier: MIT */
/* mbp_sweep.h: the state of the single-axis sort-and-sweep backend (mbp_sweep.c). Not for users:
 * read it through mbp.h. 2 bytes per body plus a few words. */
#ifndef MBP_SWEEP_H
#define MBP_SWEEP_H


typedef struct mbp_sweep_state {
    uint16_t order[MBP_MAX_BODIES]; /* body indices; [0, sorted) ascending by box min on axis */
    uint16_t count;                 /* entries in order[] (bodies added since the update last) */
    uint16_t sorted;                /* entries sorted by the last update: what queries search */
    uint8_t axis;                   /* axis of the last update; MBP_AXIS_AUTO before the first */
    uint8_t want_axis;              /* params.sweep_axis: an axis, or MBP_AXIS_AUTO */
    uint8_t removed;                /* a body was removed since the last update: compact */
    uint8_t since_pick;             /* updates since the auto axis was chosen */
    mbp_scalar ext;                 /* largest box extent on axis at the last update */
    uint32_t shifts_last;           /* insertion-sort moves of the last update (tests, bench) */
    uint32_t heap_sorts;            /* updates that fell back to the heap sort */
    mbp_scalar spread_pick;         /* spread of mins on axis when it was chosen (auto axis) */
} mbp_sweep_state;

#endif /* MBP_SWEEP_H */
