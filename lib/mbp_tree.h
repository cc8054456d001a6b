/* SPDX-License-Identifier: MIT */
/* mbp_tree.h: the state of the dynamic AABB tree backend (mbp_tree.c). Plain data, in the world.
 *
 * RAM: (2 * MBP_MAX_BODIES - 1) nodes of one box plus 8 bytes, plus 2 + 4 * MBP_DIM bytes per
 * body: about 58 bytes per body in 2D, 78 in 3D (4-byte scalars), and about 100 bytes.
 */
#ifndef MBP_TREE_H
#define MBP_TREE_H


#define MBP_TREE_NODES (2 * MBP_MAX_BODIES - 1)
#define MBP_TREE_NULL 0xFFFFu /* no node */
#define MBP_TREE_DUE 32u     /* frames ahead that exits are counted for (> 16 + 1) */
#define MBP_TREE_SWEEPS 4u   /* sweep lengths a fresh fat box picks from */
#define MBP_TREE_LEVELS 3u  /* fat boxes shrink at most 3 times (to 1/8) when pairs crowd */

typedef struct mbp_tree_node {
    mbp_aabb box;    /* leaf: the body's fat box; inner node: holds its children's (their union
                      * but below a leaf kept in place, see mbp_tree.c) */
    uint16_t parent; /* MBP_TREE_NULL at the root; a free node: the next free node */
    uint16_t child1; /* MBP_TREE_NULL for a leaf */
    uint16_t child2; /* leaf: the body index */
    uint8_t height;  /* 0 for a leaf; 0xFF marks a free node */
    uint8_t swept;   /* leaf: its sweep is longer than the rest of its fat box (in the padding) */
} mbp_tree_node;

typedef struct mbp_tree_state {
    mbp_tree_node node[MBP_TREE_NODES];
    uint16_t leaf[MBP_MAX_BODIES];          /* body -> its leaf, MBP_TREE_NULL before insertion */
    mbp_scalar ref[MBP_MAX_BODIES][MBP_DIM]; /* min corner at the last update that saw it: the
                                              * displacement is the min corner now minus this */
    mbp_scalar margin;  /* the margins in force: the parameters halved level times (mbp_tree.c) */
    mbp_scalar param_margin; /* the parameters, copied by init: tree_margin, */
    uint16_t frac;
    uint16_t param_frac;     /* tree_margin_frac */
    uint8_t sweep;
    uint8_t param_sweep;     /* and tree_sweep */
    uint8_t level;      /* 0..MBP_TREE_LEVELS: raised while fat candidates crowd the pair set */
    uint8_t hold;       /* updates before the level may fall again */
    uint8_t tick;       /* updates, mod 256: spreads the size checks of swept leaves; due[]'s now */
    uint16_t root;
    uint16_t due[MBP_TREE_DUE];      /* [frame mod MBP_TREE_DUE]: fat boxes expected to be left
                                      * then (spreads re-insertions, mbp_tree.c) */
    uint8_t slot[MBP_TREE_SWEEPS];   /* due[] index of each sweep length's exit frame */
    uint16_t free_head;
    uint16_t stack_cap; /* walks use min(stack_cap, MBP_TREE_STACK) entries; tests lower it */
    uint16_t build_min; /* leaves leaving in a frame before it may build the tree anew: this
                         * plus 1/16 of the bodies (mbp_tree_update.c); tests raise it */
    /* Counters, for tests and benchmarks. */
    uint32_t inserts;   /* last update: leaves inserted or given a new fat box */
    uint32_t kept;      /* last update: moved bodies still inside their fat box (no tree work) */
    uint32_t kept_in_place; /* last update: of inserts, leaves that kept their place */
    uint32_t jumps;     /* last update: of inserts, new leaves and leaves whose fresh fat box
                         * does not meet the old one */
    uint32_t overflows; /* last update: walks that hit the stack cap (update returned NOROOM) */
    uint32_t rebuilds;  /* since init: full frames (see mbp_tree.c) */
    uint32_t builds;    /* since init: trees built anew from their leaves (mbp_tree_build.c) */
    uint32_t fat_pairs; /* pairs of overlapping fat boxes counted by the last full frame */
    bool synced;        /* the pair set holds exactly the fat candidates: incremental frames */
    uint8_t built;      /* the last update built the tree anew */
} mbp_tree_state;

/* For tests: the height of the tree (0 when empty or one leaf), and a full check of its
 * invariants (links, boxes, heights, AVL balance, leaf count, free list). */
uint32_t mbp__tree_height(const mbp_tree_state *t);
bool mbp__tree_valid(const mbp_tree_state *t);

#endif /* MBP_TREE_H */
