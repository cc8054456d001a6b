/* SPDX-License-Identifier: MIT */
/* mbp_quadtree.h: the state of the loose quadtree (2D) / octree (3D) backend (mbp_quadtree.c).
 * Plain data, in the world.
 *
 * RAM: MBP_QUADTREE_NODES nodes of 18 bytes (2D) or 28 bytes (3D), plus 7 bytes per body and its
 * box of the last update (16 bytes in 2D, 24 in 3D, for 32-bit scalars): with the default pool of
 * 2 nodes per body, 59 bytes per body in 2D, 87 in 3D.
 */
#ifndef MBP_QUADTREE_H
#define MBP_QUADTREE_H


#define MBP__QT_KIDS (MBP_DIM == 2 ? 4u : 8u) /* children of a node: 4 (quadtree) or 8 (octree) */
#define MBP__QT_NULL 0xFFFFu        /* no node, no body */
#define MBP__QT_DEPTH_MAX 15u       /* params.quadtree_depth: cell coordinates fit 16 bits */

typedef struct mbp_qt_node {
    uint16_t kid[MBP__QT_KIDS]; /* child nodes by cell bits (axis k: bit k), MBP__QT_NULL */
    uint16_t parent;            /* MBP__QT_NULL at the root; a free node: the next free one */
    uint16_t head;              /* first body in this node, MBP__QT_NULL for none */
    uint16_t cell[MBP_DIM];     /* the node's cell at its depth, from the world box's min corner */
    uint8_t depth;              /* 0 at the root */
    uint8_t kids;               /* the slots of kid[] in use, a bit each */
} mbp_qt_node;

typedef struct mbp_quadtree_state {
    mbp_qt_node node[MBP_QUADTREE_NODES];  /* node 0 is the root, always in use */
    uint16_t of[MBP_MAX_BODIES];           /* body -> its node, MBP__QT_NULL when not in */
    uint16_t next[MBP_MAX_BODIES];         /* the bodies of a node: a doubly linked list */
    uint16_t prev[MBP_MAX_BODIES];
    mbp_aabb rec[MBP_MAX_BODIES];          /* body -> its box as of the last update (in the tree) */
    uint8_t home[MBP_MAX_BODIES];          /* a full frame's: the depth of the body's home node */
    mbp_scalar origin[MBP_DIM]; /* params.quadtree_origin: the world box's min corner */
#if MBP_SCALAR == MBP_FIXED
    mbp__cellmap cell;          /* params.quadtree_cell: the finest cell's edge, with its shift */
#else
    mbp_scalar cell;            /* params.quadtree_cell: the finest cell's edge */
    mbp_scalar inv;             /* 1 / cell */
    mbp_scalar root;            /* the world box's edge, cell * 2^depth */
#endif
    uint8_t depth;              /* params.quadtree_depth: levels below the root */
    uint16_t free_head;         /* first free node */
    uint16_t used;              /* nodes in use (the root included) */
    uint16_t cap;               /* nodes usable, MBP_QUADTREE_NODES; tests lower it */
} mbp_quadtree_state;

#endif /* MBP_QUADTREE_H */
