/* SPDX-License-Identifier: MIT */
/* mbp_world_types.h: the plain-data layout of a world, included by mbp.h.
 *
 * It is public only so that you can declare a world with its size known at compile time
 * (static mbp_world w; or on a stack). Read it through the functions of mbp.h; writing to it
 * breaks the world's invariants.
 */
#ifndef MBP_WORLD_TYPES_H
#define MBP_WORLD_TYPES_H

/* Index types sized by the configuration: a pair-set index fits in 16 bits for small sets. */
#if MBP_MAX_PAIRS < 65535
typedef uint16_t mbp_pidx;
#else
typedef uint32_t mbp_pidx;
#endif

/* The pair set: a dense array of pairs (a < b; hashed by the key a << 16 | b) with a flag byte
 * each, and an open-addressing hash index over it (linear probing, backward-shift deletion, so no
 * tombstones and the layout depends only on the sequence of operations). Insert, find and remove
 * are O(1) expected; walking is over the dense array. mbp_pairs() hands the array to the user:
 * it first moves the overlapping pairs to the front when candidates that do not overlap are
 * mixed in (split == 0). */
typedef struct mbp_pairset {
    /* pair[0..count) the stored pairs; above them the last update's events: the ended ones
     * from ev_end up, the begun ones in the top entries (MBP__PAIR_ROOM entries: the pairs'
     * capacity and the room reserved for events, MBP_MAX_EVENTS). */
    mbp_pair pair[MBP__PAIR_ROOM];
    uint8_t flag[MBP_MAX_PAIRS];
#if MBP_PAIR_USER
    uint32_t user[MBP__PAIR_ROOM]; /* the user's slot of each pair, moved with it; 0 when inserted
                                    * and when the pair ends (mbp_pair_users()); an ended event's
                                    * entry: its pair's last slot */
#endif
    mbp_pidx slot[MBP_PAIR_HASH_SIZE]; /* dense index + 1; 0 is an empty slot */
    uint32_t count;                    /* entries in key[] */
    uint32_t hits;                     /* entries reported as overlapping */
    uint32_t lost;                     /* inserts refused this frame */
    uint32_t ev_end;                   /* the first entry of the last update's ended events */
    uint8_t split;                     /* the hits are pair[0..hits): the rest are not hits */
    /* This update's record of what the backend reported (mbp_bp.h's pair sink). */
    uint8_t full_frame; /* this update reports every pair anew */
    uint8_t touched;    /* the backend started or ended a candidate */
    uint8_t dropped;    /* the backend ended a candidate, or rebuilt */
    uint8_t exact;      /* every candidate of a moved body was ended and only exact pairs begun
                         * (mbp__sink_end_moved()): the log settles the update */
    uint32_t log_count; /* pairs whose candidate state changed; past MBP_PAIR_LOG: too many to
                         * log, the update walks the pair set */
    uint32_t log[MBP_PAIR_LOG]; /* their keys (a pair may stand more than once) */
} mbp_pairset;

#if MBP_SCALAR == MBP_FIXED
/* A fixed-point cell edge in raw units, with the shift that maps an offset to its cell when the
 * edge is a power of two: a division is a library call on the Cortex-M0. The grids and the
 * quadtree each keep one, set at init by mbp__cellmap_of() and read by mbp__cell_div()
 * (mbp_bp.h). */
typedef struct mbp__cellmap {
    uint32_t edge; /* >= 1: each backend's init checks it (MBP_E_PARAM) */
    int32_t shift; /* log2(edge) when edge is a power of two, else -1 */
} mbp__cellmap;
#endif

/* Backend states: each backend's file declares its own; a world holds the one it uses. */
#if MBP_WITH_SWEEP
#include "mbp_sweep.h"
#endif
#if MBP_WITH_SAP
#include "mbp_sap.h"
#endif
#if MBP_WITH_GRID || MBP_WITH_HASH
#include "mbp_grid.h"
#endif
#if MBP_WITH_HGRID
#include "mbp_hgrid.h"
#endif
#if MBP_WITH_TREE
#include "mbp_tree.h"
#endif
#if MBP_WITH_QUADTREE
#include "mbp_quadtree.h"
#endif

typedef union mbp_backend_state {
    uint8_t none; /* brute force keeps nothing */
#if MBP_WITH_SWEEP
    mbp_sweep_state sweep;
#endif
#if MBP_WITH_SAP
    mbp_sap_state sap;
#endif
#if MBP_WITH_GRID || MBP_WITH_HASH
    mbp_grid_state grid;
#endif
#if MBP_WITH_HGRID
    mbp_hgrid_state hgrid;
#endif
#if MBP_WITH_TREE
    mbp_tree_state tree;
#endif
#if MBP_WITH_QUADTREE
    mbp_quadtree_state quadtree;
#endif
} mbp_backend_state;

#if MBP__POOL
/* One entry of the shape pool: the shape of a body that is an oriented box, a k-DOP or a
 * capsule, or the box of a fast box body (whose w->box is its bound). Only the kinds compiled in
 * take room. */
typedef struct mbp_shape_slot {
    union {
        mbp_aabb box;
#if MBP_WITH_OBB
        mbp_obb obb;
#endif
#if MBP_WITH_KDOP
        mbp_kdop kdop;
#endif
#if MBP_WITH_CAPSULE
        mbp_capsule capsule;
#endif
#if MBP_WITH_RSS
        mbp_rss rss;
#endif
        uint16_t next; /* a free entry: the next free one, index + 1, 0 ends */
    } u;
    uint8_t kind; /* mbp_shape_kind; 0 for a free entry */
} mbp_shape_slot;
#endif

typedef struct mbp_world {
    uint32_t magic; /* set by mbp_init(); catches an uninitialised world */
    mbp_params params;

    /* Bodies, by index. A slot is live, dying (removed, waiting for the next update to end its
     * pairs) or free. */
    mbp_aabb box[MBP_MAX_BODIES]; /* the box the broad phase uses (a sphere's box for spheres) */
#if MBP_WITH_SPHERES
    mbp_sphere sphere[MBP_MAX_BODIES];
#endif
    uint32_t user[MBP_MAX_BODIES];
    /* A live body's filter category; a free or dying slot's next one in the free or dying list
     * (index + 1, 0 ends): a slot not live has no filter, so the lists cost no RAM of their own. */
    uint16_t category[MBP_MAX_BODIES];
    uint16_t mask[MBP_MAX_BODIES];
    uint16_t gen[MBP_MAX_BODIES];
    uint8_t flags[MBP_MAX_BODIES]; /* MBP__LIVE, MBP__SPHERE, MBP__DIRTY, MBP__DYING, MBP__SHAPE,
                                    * MBP__FAST */
    uint16_t dirty[MBP_MAX_BODIES]; /* bodies added, moved or refiltered since the last update */
    uint16_t dirty_count;
#if MBP__POOL
    uint16_t shape_of[MBP_MAX_BODIES]; /* the body's pool entry, index + 1; 0 for none */
    mbp_shape_slot shapes[MBP_MAX_SHAPES];
    uint16_t shape_free;               /* first free pool entry, index + 1 */
#endif
    uint16_t free_head;   /* index + 1 */
    uint16_t dying_head;  /* index + 1 */
    uint16_t live_count;
    uint16_t high;        /* every live or dying index is below this */

    mbp_pairset pairs;
    mbp_stats stats;
    uint8_t restart;      /* the backend was built anew (mbp_shift_origin()): the next update
                           * takes its candidates afresh and tests every pair */
    uint8_t special;      /* a body had a special flag (MBP__SPECIAL) at the last update or has
                           * had one since: the pairs of moved bodies need their exact test again */
    uint16_t special_count; /* bodies, live or dying, with a special flag now (mbp__set_flags()) */

    mbp_backend_state be;
} mbp_world;

#endif /* MBP_WORLD_TYPES_H */
