/* SPDX-License-Identifier: MIT */
/* twin.h: a backend under test against brute force, fed the same calls (used by test_sweep.c
 * and test_sap.c).
 *
 * twin_run() drives two worlds through the same random scene, one with the backend and params
 * under test (test_w), one with brute force (test_w2), and compares after every update the status,
 * the sorted pairs and both event lists; unlike diff_run() it takes any params.
 */
#ifndef TWIN_H
#define TWIN_H

#include "diff.h"

typedef struct {
    uint32_t seed;
    uint32_t bodies;    /* target live count */
    uint32_t frames;
    uint32_t teleport;  /* per 1000 bodies per frame */
    uint32_t churn;     /* per 1000 frames: a remove and an add */
    int32_t extent;     /* world side in units; 0 picks about one overlap per body */
} twin_opts;

/* The scene's bodies, by index in both worlds (after twin_run, tests may move them further). */
typedef struct {
    bool live;
    int32_t lo[MBP_DIM], hi[MBP_DIM]; /* quarter units */
    int32_t vel[MBP_DIM];
    mbp_body h;
} tbody;

extern tbody g_tb[MBP_MAX_BODIES];
/* A body's box, and a new random place for it within [0, ext] quarter units on every axis. */
mbp_aabb t_box(const tbody *b);
void t_place(uint32_t *rng, tbody *b, int32_t ext);

/* Runs the scene; returns the number of frames that disagreed (0 when all matched). */
uint32_t twin_run(const mbp_params *p, const twin_opts *o);
/* True when both worlds now hold the same pairs (and, with events, the same events). */
bool twin_same(bool events);

#endif
