/* SPDX-License-Identifier: MIT */
/* diff.h: randomized differential testing of a backend against an independent O(n^2) oracle.
 *
 * diff_run() drives a world through a random scene (adds, moves, removes, filter changes,
 * updates) and after every update compares, pair for pair, the world's sorted pairs, its begun
 * events and its ended events with what the oracle computes from its own copy of the bodies.
 * The oracle shares no code with the library: its box and sphere tests are written here.
 */
#ifndef DIFF_H
#define DIFF_H

#include "mbp_test.h"

typedef enum {
    SCENE_COHERENT, /* bodies drift with small velocities and bounce off the walls */
    SCENE_JITTER,   /* bodies on a coarse lattice step by +-1 lattice unit: constant touching */
    SCENE_IDENTICAL,/* groups of identical boxes and zero-size boxes (points) */
    SCENE_LINE,     /* every box on one line: equal coordinates on every other axis */
    SCENE_TELEPORT, /* coherent, plus a few bodies jumping anywhere each frame */
    SCENE_BURST,    /* coherent, plus bursts of removals and additions */
    SCENE_CALM,     /* coherent, but about one body in 16 moves each frame, the others still */
    SCENE_COUNT
} diff_scene;

typedef struct {
    uint32_t seed;
    uint32_t bodies;   /* target number of live bodies, <= MBP_MAX_BODIES */
    uint32_t frames;
    diff_scene scene;
    bool spheres;      /* about a third of the bodies are spheres */
    bool filters;      /* random categories and masks */
} diff_opts;

/* Initialises a world with backend b and runs the scene. Returns the number of frames where
 * anything disagreed (0 when the backend matches); failures are also CHECKed, naming the frame. */
uint32_t diff_run(mbp_backend b, const diff_opts *o);

/* Frames of diff_run() since the program started that lost events (the pair set's free entries
 * and MBP_MAX_EVENTS full): compare() then checks the events held as a part of the expected. */
extern uint32_t diff_lost_event_frames;

/* The backends compiled into this build, for loops over all of them. */
extern const mbp_backend diff_backends[];
extern const uint32_t diff_backend_count;

#endif
