/* SPDX-License-Identifier: MIT */
/* peers.h: what the make bench-peers program's files share (docs/bench.md, "make bench-peers").
 *
 * One method is one broad phase behind five calls. The runner (peers.c) owns the bodies' boxes,
 * g_box[id], and writes a body's new box there before it calls add or move; a method reads it
 * from there (or copies it), as a physics engine's broad phase reads its bodies' bounds. Every
 * method reports its candidate pairs to peer_pair(), the one shared exact test, which keeps the
 * pairs whose closed boxes overlap (touching boxes overlap). A frame, the measured unit, is: the
 * frame's adds, moves and removes, then update, then the pair walk.
 *
 * The peers (Bullet, Box2D, Chipmunk) are linked only into this program, never into lib/.
 */
#ifndef PEERS_H
#define PEERS_H

#include "bench.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The bodies' current boxes, by id (the runner's array, MBP_MAX_BODIES long). */
extern mbp_aabb *g_box;

/* The shared exact test: records pair {a, b} when g_box[a] and g_box[b] overlap (closed), unless
 * both are the scene's static bodies (bench_source.statics), which never pair. */
void peer_pair(uint32_t a, uint32_t b);

typedef struct peer_method {
    const char *name;   /* e.g. "mbp-sap", "bullet-sap", "chipmunk-hash" */
    const char *family; /* "mbp", "peer" or "ref" (brute force and the plain sort-and-sweep) */
    /* A new, empty structure for scene s (bounds, cell size, capacity s->n); NULL on failure. */
    void *(*create)(const struct peer_method *m, const bench_source *s);
    void (*add)(void *x, uint32_t id);
    void (*move)(void *x, uint32_t id);
    void (*remove)(void *x, uint32_t id);
    /* The structure's own per-frame work, then every candidate pair to peer_pair(). */
    void (*update)(void *x);
    void (*walk)(void *x);
    /* State bytes when the method does not allocate it (mbp's world is a fixed struct); 0: the
     * runner measures the heap the method holds instead. */
    size_t (*state_bytes)(void *x);
    void (*destroy)(void *x);
    int variant; /* which structure of the peer (its adapter's enum) */
} peer_method;

/* Each adapter appends its methods to list[*count] (room for 16). */
void peers_mbp(peer_method *list, int *count);
void peers_bullet(peer_method *list, int *count);
void peers_box2d(peer_method *list, int *count);
void peers_chipmunk(peer_method *list, int *count);
void peers_ref(peer_method *list, int *count); /* brute force and the plain sort-and-sweep */

#ifdef __cplusplus
}
#endif

#endif /* PEERS_H */
