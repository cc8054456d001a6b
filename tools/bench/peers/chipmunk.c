/* SPDX-License-Identifier: MIT */
/* chipmunk.c: Chipmunk2D 7.0.3's spatial indexes (Debian's libchipmunk-dev), for make
 * bench-peers, through cpSpatialIndex as cpSpace drives them: cpSpaceHash, cpBBTree and
 * cpSweep1D. Chipmunk re-reads every shape's box each step: a move only writes the box (g_box,
 * which the index's bbfunc reads, as cpShape's cached box), and the update is
 * cpSpatialIndexReindexQuery(), which re-indexes and reports every candidate pair to the shared
 * exact test. The tree gets cpSpace's velocity function: boxes fattened by a tenth of a second
 * of motion, at 60 frames per second (the box centre's last displacement times 60). The hash has
 * the scene's cell and 10 cells per body, Chipmunk's advice.
 *
 * A scene's static bodies (the level's tiles) go into a second index, as cpSpace keeps its static
 * shapes: the main index is made with it as its static index, so the re-index query reports the
 * pairs among the other bodies, then each other body's pairs with the static ones
 * (cpSpatialIndexCollideStatic), never two static ones. Its class is cpSpace's: a hash for the
 * hash (cpSpaceUseSpatialHash), a tree otherwise (cpSpace has no sweep option).
 */
#include "peers.h"

#include <chipmunk/chipmunk.h>
#include <stdlib.h>

typedef struct {
    cpSpatialIndex *index;
    cpSpatialIndex *fixed; /* the static bodies' */
    uint32_t statics;      /* ids below this are static bodies */
    cpVect *vel;      /* tree: per body, units per second */
    cpVect *centre;   /* tree: the box centre at the last move */
} chipx;

static cpVect *g_vel; /* the tree's velocities (cpBBTreeVelocityFunc has no context) */

static cpBB bb_of(void *obj)
{
    const mbp_aabb *b = obj;
    return cpBBNew(b->min[0], b->min[1], b->max[0], b->max[1]);
}

static cpVect vel_of(void *obj)
{
    return g_vel[(const mbp_aabb *)obj - g_box];
}

static void *cp_create(const peer_method *m, const bench_source *s)
{
    chipx *x = calloc(1u, sizeof *x);
    x->statics = s->statics;
    x->fixed = m->variant == 0 ? cpSpaceHashNew(s->cell, (int)(10u * s->n), bb_of, NULL)
                               : cpBBTreeNew(bb_of, NULL);
    if (m->variant == 0) {
        x->index = cpSpaceHashNew(s->cell, (int)(10u * s->n), bb_of, x->fixed);
    } else if (m->variant == 1) {
        x->index = cpBBTreeNew(bb_of, x->fixed);
        x->vel = calloc(s->n, sizeof *x->vel);
        x->centre = calloc(s->n, sizeof *x->centre);
        g_vel = x->vel;
        cpBBTreeSetVelocityFunc(x->index, vel_of);
    } else {
        x->index = cpSweep1DNew(bb_of, x->fixed);
    }
    return x;
}

static cpVect centre_of(uint32_t id)
{
    return cpv(0.5 * ((double)g_box[id].min[0] + g_box[id].max[0]),
               0.5 * ((double)g_box[id].min[1] + g_box[id].max[1]));
}

static void cp_add(void *v, uint32_t id)
{
    chipx *x = v;
    if (x->vel != NULL) {
        x->vel[id] = cpvzero;
        x->centre[id] = centre_of(id);
    }
    cpSpatialIndexInsert(id < x->statics ? x->fixed : x->index, &g_box[id], id);
}

static void cp_move(void *v, uint32_t id)
{
    chipx *x = v;
    if (id < x->statics) { /* a static shape that moved: cpSpaceReindexShape */
        cpSpatialIndexReindexObject(x->fixed, &g_box[id], id);
    } else if (x->vel != NULL) {
        cpVect c = centre_of(id);
        x->vel[id] = cpvmult(cpvsub(c, x->centre[id]), 60.0);
        x->centre[id] = c;
    }
}

static void cp_remove(void *v, uint32_t id)
{
    chipx *x = v;
    cpSpatialIndexRemove(id < x->statics ? x->fixed : x->index, &g_box[id], id);
}

static cpCollisionID report(void *a, void *b, cpCollisionID id, void *data)
{
    (void)data;
    peer_pair((uint32_t)((mbp_aabb *)a - g_box), (uint32_t)((mbp_aabb *)b - g_box));
    return id;
}

static void cp_update(void *v)
{
    (void)v;
}

static void cp_walk(void *v)
{
    cpSpatialIndexReindexQuery(((chipx *)v)->index, report, NULL);
}

static void cp_destroy(void *v)
{
    chipx *x = v;
    cpSpatialIndexFree(x->index);
    cpSpatialIndexFree(x->fixed);
    free(x->vel);
    free(x->centre);
    free(x);
}

void peers_chipmunk(peer_method *list, int *count)
{
    static const char *const names[] = {"chipmunk-hash", "chipmunk-tree", "chipmunk-sweep"};
    for (int i = 0; i < 3; i++) {
        list[(*count)++] = (peer_method){names[i], "peer", cp_create, cp_add, cp_move, cp_remove,
                                         cp_update, cp_walk, NULL, cp_destroy, i};
    }
}
