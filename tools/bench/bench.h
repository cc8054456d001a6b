/* SPDX-License-Identifier: MIT */
/* bench.h: what the bench program's files share (tools/bench/, docs/bench.md).
 *
 * A scene is a source of frames: each frame is a list of operations (add, move, remove a body
 * by a dense id 0..n-1) that the runner applies to a world before calling mbp_update(). The
 * same source replays the same frames for every backend: generated scenes restart from their
 * seed on reset(), a recorded scene (replay.c, host only) replays the file.
 */
#ifndef BENCH_H
#define BENCH_H

#include "mbp.h"
#include "mbp_port.h"

typedef enum { BENCH_ADD, BENCH_MOVE, BENCH_REMOVE } bench_opkind;

typedef struct bench_op {
    uint8_t kind; /* bench_opkind */
    uint16_t id;  /* 0..n-1 */
    mbp_aabb box; /* add, move */
} bench_op;

typedef struct bench_source bench_source;
struct bench_source {
    const char *name;
    uint32_t n;       /* ids are 0..n-1 (the most bodies alive at once is at most n) */
    uint32_t warmup;  /* frames run before the measured ones (frame 0 adds the bodies) */
    uint32_t frames;  /* measured frames after the warm-up */
    uint32_t runs;    /* repeated runs (host: the median is reported; QEMU: 1, it repeats exactly) */
    uint32_t statics; /* ids below this are static bodies (mbp_add_static_box): they never pair
                       * with each other, so a method without static bodies skips those pairs */
    /* The region the bodies stay in and a good grid cell, for the grid-type backends' params. */
    mbp_scalar lo[MBP_DIM], hi[MBP_DIM];
    mbp_scalar cell;
    void (*reset)(bench_source *s);
    /* Frame f (0, 1, 2, ... in order after reset): the operations, *count of them. */
    const bench_op *(*frame)(bench_source *s, uint32_t f, uint32_t *count);
    void *ctx;
};

/* Generated scenes (scene.c). */
typedef enum {
    SCENE_SPARSE,   /* coherent motion, few overlaps per body */
    SCENE_DENSE,    /* coherent motion, many overlaps per body */
    SCENE_CLUSTER,  /* a pile settling: bodies fall onto their rest places and stop */
    SCENE_TELEPORT, /* sparse, plus 1% of the bodies (at least one) jumping anywhere each frame */
    SCENE_STATIC,   /* sparse layout, nothing moves after frame 0 */
    SCENE_CALM,     /* sparse layout, one body in 16 drifting, the others still (asleep) */
    SCENE_MIXED,    /* small fast bodies among a few large slow ones (edges 1/4..32 units) */
    SCENE_LEVEL,    /* level geometry: 15 of 16 bodies static tiles (walls, floors), 1 in 16 moving */
    SCENE_SMASH,    /* a heavy fast body ploughing through a packed grid of resting boxes */
    SCENE_COUNT
} bench_scene;

/* Sets up *s for scene sc with n bodies (n <= MBP_MAX_BODIES). */
void scene_make(bench_source *s, bench_scene sc, uint32_t n);

/* True when the frame's m operations ops are all moves and fit arrays of MBP_MAX_BODIES: then
 * mh[j] and mbox[j] (room for MBP_MAX_BODIES each) hold the j-th move's handle (from h, by id) and
 * box, as an application keeps them for mbp_move_boxes() (scene.c). */
bool bench_gather_moves(const bench_op *ops, uint32_t m, const mbp_body *h, mbp_body *mh,
                        mbp_aabb *mbox);

/* Applies operation o of source s to w, with h[id] the handle of body id (set by an add, cleared
 * by a remove): an add of an id below s->statics adds a static body. The call's status (scene.c).
 */
mbp_status bench_apply_op(mbp_world *w, const bench_source *s, mbp_body *h, const bench_op *o);

/* Runs every compiled backend on s (brute force first, as the reference) and prints one
 * "CSV,..." line per backend (bench.c). */
void bench_source_run(bench_source *s);

/* Output without stdio, the same on host and target (bench.c). */
void bench_puts(const char *str);
void bench_putu(uint64_t v);

/* make bench's parameters for backend b on source s's scene (scene.c): the grids' cell is the
 * scene's cell, the grid covers the scene's region, the quadtree's world box is the region. */
void bench_params(mbp_params *p, mbp_backend b, const bench_source *s);

#endif /* BENCH_H */
