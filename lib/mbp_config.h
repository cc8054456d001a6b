/* SPDX-License-Identifier: MIT */
/* mbp_config.h: reads the user's configuration, fills in the defaults, rejects bad combinations.
 *
 * This is the one place where defaults live. config/mbp_config_template.h documents every option;
 * copy it, set what you need, and build with -DMBP_CONFIG_FILE='"my_config.h"' (or set options
 * with plain -D flags). The library and the application must be built with the same options:
 * mbp_init() refuses a world declared under another configuration (see mbp.h).
 *
 * Each check gives one #error per mistake: an option found bad is set back to its default
 * after its message, so that the checks after it do not report it again under other names.
 * "(0 - X - 1) == 1 && (X + 0) != -2" is true only when X is defined empty; every check writes
 * an option as (X + 0), so an empty #define gets a message instead of a preprocessor error.
 * Values derived from other options (e.g. MBP_GRID_MAX_ENTRIES, 4 x MBP_MAX_BODIES) are checked
 * only when the backends that use them are compiled in, and their message says where they came
 * from.
 */
#ifndef MBP_CONFIG_H
#define MBP_CONFIG_H

#ifdef MBP_CONFIG_FILE
#include MBP_CONFIG_FILE
#endif

/* Scalar kinds for MBP_SCALAR. */
#define MBP_FLOAT 1
#define MBP_FIXED 2

/* Dimension: 2 (boxes are rectangles, spheres are circles) or 3. */
#ifndef MBP_DIM
#define MBP_DIM 2
#endif
#if (0 - MBP_DIM - 1) == 1 && (MBP_DIM + 0) != -2 || (MBP_DIM + 0) != 2 && (MBP_DIM + 0) != 3
#error "MBP_DIM must be 2 or 3: set it in your MBP_CONFIG_FILE"
#undef MBP_DIM
#define MBP_DIM 2
#endif

/* Coordinates: MBP_FLOAT (IEEE single) or MBP_FIXED (signed 32-bit, MBP_FIXED_FRAC_BITS
 * fraction bits; no floating point anywhere in the library). */
#ifndef MBP_SCALAR
#define MBP_SCALAR MBP_FLOAT
#endif
#if (0 - MBP_SCALAR - 1) == 1 && (MBP_SCALAR + 0) != -2 || \
    (MBP_SCALAR + 0) != MBP_FLOAT && (MBP_SCALAR + 0) != MBP_FIXED
#error "MBP_SCALAR must be MBP_FLOAT or MBP_FIXED: set it in your MBP_CONFIG_FILE"
#undef MBP_SCALAR
#define MBP_SCALAR MBP_FLOAT
#endif

/* Fixed point only: fraction bits. The coordinate range is +-(2^30 - 1) raw units whatever this
 * is, so 16 gives +-16384.0 with steps of 1/65536; 8 gives +-4194304.0 with steps of 1/256. */
#ifndef MBP_FIXED_FRAC_BITS
#define MBP_FIXED_FRAC_BITS 16
#endif
#if (0 - MBP_FIXED_FRAC_BITS - 1) == 1 && (MBP_FIXED_FRAC_BITS + 0) != -2 || \
    (MBP_FIXED_FRAC_BITS + 0) < 0 || (MBP_FIXED_FRAC_BITS + 0) > 24
#error "MBP_FIXED_FRAC_BITS must be 0..24: set it in your MBP_CONFIG_FILE"
#undef MBP_FIXED_FRAC_BITS
#define MBP_FIXED_FRAC_BITS 16
#endif

/* Capacity in bodies. Each body costs about 40 bytes (2D float) to 60 bytes (3D, spheres) in the
 * world itself, plus what the chosen backends keep per body (make size prints the figures). */
#ifndef MBP_MAX_BODIES
#define MBP_MAX_BODIES 128
#endif
#if (0 - MBP_MAX_BODIES - 1) == 1 && (MBP_MAX_BODIES + 0) != -2 || \
    (MBP_MAX_BODIES + 0) < 1 || (MBP_MAX_BODIES + 0) > 65534
#error "MBP_MAX_BODIES must be 1..65534: set it in your MBP_CONFIG_FILE"
#undef MBP_MAX_BODIES
#define MBP_MAX_BODIES 128
#endif

/* Capacity of the pair set. Each pair of capacity costs 5 bytes (the pair and its flags) and 3
 * bytes of hash index (1.5 16-bit slots; 32-bit slots from 65535 pairs on: 6 bytes): 8 bytes in
 * all, 11 from 65535 pairs on. The entries the stored pairs leave free also hold the update's
 * begin and end events (MBP_MAX_EVENTS below).
 * Within one update the set holds the pairs of the previous frame and the pairs that begin in
 * this one; when it is full, mbp_update() returns MBP_E_PAIRS_FULL and counts the lost pairs. */
#ifndef MBP_MAX_PAIRS
#define MBP_MAX_PAIRS (2 * MBP_MAX_BODIES)
#endif
#if (0 - MBP_MAX_PAIRS - 1) == 1 && (MBP_MAX_PAIRS + 0) != -2 || \
    (MBP_MAX_PAIRS + 0) < 1 || (MBP_MAX_PAIRS + 0) > 1048576
#error "MBP_MAX_PAIRS must be 1..1048576: set it in your MBP_CONFIG_FILE"
#undef MBP_MAX_PAIRS
#define MBP_MAX_PAIRS (2 * MBP_MAX_BODIES)
#endif

/* Begin/end event lists (mbp_begun(), mbp_ended()). 0 leaves them and their functions out (the
 * statistics still count the pairs that began and ended), for firmware that reads only the
 * overlapping pairs. */
#ifndef MBP_WITH_EVENTS
#define MBP_WITH_EVENTS 1
#endif
#if (0 - MBP_WITH_EVENTS - 1) == 1 && (MBP_WITH_EVENTS + 0) != -2 || \
    (MBP_WITH_EVENTS + 0) != 0 && (MBP_WITH_EVENTS + 0) != 1
#error "MBP_WITH_EVENTS must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_WITH_EVENTS
#define MBP_WITH_EVENTS 1
#endif

/* Entries of the pair set that only events may use, 4 bytes each. An update's events, both kinds
 * together, go into the entries its stored pairs (and the candidates its backend keeps) leave
 * free, plus these; a pair that ends and leaves the set frees its own entry for its event. A
 * frame with more returns MBP_E_EVENTS_FULL and counts the lost events; the pair set stays exact.
 * 0 (the default) reserves none: size MBP_MAX_PAIRS for the pairs plus one frame's begin events.
 * MBP_MAX_PAIRS here: no frame whose pairs fit loses an event. Not with MBP_WITH_EVENTS 0. */
#ifndef MBP_MAX_EVENTS
#define MBP_MAX_EVENTS 0
#endif
#if (0 - MBP_MAX_EVENTS - 1) == 1 && (MBP_MAX_EVENTS + 0) != -2 || \
    (MBP_MAX_EVENTS + 0) < 0 || (MBP_MAX_EVENTS + 0) > 2097152
#error "MBP_MAX_EVENTS must be 0..2097152: set it in your MBP_CONFIG_FILE"
#undef MBP_MAX_EVENTS
#define MBP_MAX_EVENTS 0
#endif
#if !MBP_WITH_EVENTS && MBP_MAX_EVENTS != 0
#error "MBP_MAX_EVENTS reserves room for events, which MBP_WITH_EVENTS 0 leaves out: set it to 0"
#endif
/* Entries of the pair set's arrays: pairs and events. */
#define MBP__PAIR_ROOM (MBP_MAX_PAIRS + MBP_MAX_EVENTS)

/* The pair changes one update can log, 4 bytes each: with SAP on exact values and no sphere,
 * shape, fast or filtered body, and in brute force's and sweep's few-moved updates, the update
 * then handles the pairs that changed instead of walking every stored pair (again). An update
 * with more changes walks the pair set (slower, as exact). Default: half a change per body,
 * plus 8. */
#ifndef MBP_PAIR_LOG
#define MBP_PAIR_LOG (MBP_MAX_BODIES / 2 + 8)
#endif
#if (0 - MBP_PAIR_LOG - 1) == 1 && (MBP_PAIR_LOG + 0) != -2 || \
    (MBP_PAIR_LOG + 0) < 1 || (MBP_PAIR_LOG + 0) > 2097152
#error "MBP_PAIR_LOG must be 1..2097152: set it in your MBP_CONFIG_FILE"
#undef MBP_PAIR_LOG
#define MBP_PAIR_LOG (MBP_MAX_BODIES / 2 + 8)
#endif
/* A user slot per pair (mbp_pair_users(), mbp_ended_users()): 32 bits kept with a pair while it
 * overlaps, e.g. to cache its contact. Costs 4 bytes per pair of capacity and per reserved event
 * (MBP_MAX_EVENTS). 0 (the default) removes the slots, their functions and every line that moves
 * them. */
#ifndef MBP_PAIR_USER
#define MBP_PAIR_USER 0
#endif
#if (0 - MBP_PAIR_USER - 1) == 1 && (MBP_PAIR_USER + 0) != -2 || \
    (MBP_PAIR_USER + 0) != 0 && (MBP_PAIR_USER + 0) != 1
#error "MBP_PAIR_USER must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_PAIR_USER
#define MBP_PAIR_USER 0
#endif
/* An ended pair's slot is handed back only through mbp_ended_users(), an event list. */
#if MBP_PAIR_USER && !MBP_WITH_EVENTS
#error "MBP_PAIR_USER 1 needs the event lists (MBP_WITH_EVENTS 1): set one of them in your MBP_CONFIG_FILE"
#endif

/* Sphere (circle) bodies: DIM+1 scalars per body (12 bytes in 2D float), so off by default as
 * the other shapes are: a world of boxes does not pay for them. Without them, mbp_add_sphere()
 * and mbp_move_sphere() are not defined (a link error) and mbp_add_shape() returns MBP_E_PARAM
 * for a sphere. */
#ifndef MBP_WITH_SPHERES
#define MBP_WITH_SPHERES 0
#endif
#if (0 - MBP_WITH_SPHERES - 1) == 1 && (MBP_WITH_SPHERES + 0) != -2 || \
    (MBP_WITH_SPHERES + 0) != 0 && (MBP_WITH_SPHERES + 0) != 1
#error "MBP_WITH_SPHERES must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_WITH_SPHERES
#define MBP_WITH_SPHERES 0
#endif

/* Backends compiled in; a world picks one of them at mbp_init(). Each costs flash, and the
 * world's RAM is that of the largest one compiled in (their state shares one union). */
#ifndef MBP_WITH_BRUTE
#define MBP_WITH_BRUTE 1
#endif
#if (0 - MBP_WITH_BRUTE - 1) == 1 && (MBP_WITH_BRUTE + 0) != -2 || \
    (MBP_WITH_BRUTE + 0) != 0 && (MBP_WITH_BRUTE + 0) != 1
#error "MBP_WITH_BRUTE must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_WITH_BRUTE
#define MBP_WITH_BRUTE 1
#endif
#ifndef MBP_WITH_SWEEP
#define MBP_WITH_SWEEP 1
#endif
#if (0 - MBP_WITH_SWEEP - 1) == 1 && (MBP_WITH_SWEEP + 0) != -2 || \
    (MBP_WITH_SWEEP + 0) != 0 && (MBP_WITH_SWEEP + 0) != 1
#error "MBP_WITH_SWEEP must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_WITH_SWEEP
#define MBP_WITH_SWEEP 1
#endif
#ifndef MBP_WITH_SAP
#define MBP_WITH_SAP 1
#endif
#if (0 - MBP_WITH_SAP - 1) == 1 && (MBP_WITH_SAP + 0) != -2 || \
    (MBP_WITH_SAP + 0) != 0 && (MBP_WITH_SAP + 0) != 1
#error "MBP_WITH_SAP must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_WITH_SAP
#define MBP_WITH_SAP 1
#endif
/* SAP only: 1 stores endpoints as 16-bit values over mbp_params.sap_world (4 bytes less per body
 * and axis; candidates become a superset that the exact test trims). */
#ifndef MBP_SAP_QUANTIZED
#define MBP_SAP_QUANTIZED 0
#endif
#if (0 - MBP_SAP_QUANTIZED - 1) == 1 && (MBP_SAP_QUANTIZED + 0) != -2 || \
    (MBP_SAP_QUANTIZED + 0) != 0 && (MBP_SAP_QUANTIZED + 0) != 1
#error "MBP_SAP_QUANTIZED must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_SAP_QUANTIZED
#define MBP_SAP_QUANTIZED 0
#endif
#ifndef MBP_WITH_GRID
#define MBP_WITH_GRID 1
#endif
#if (0 - MBP_WITH_GRID - 1) == 1 && (MBP_WITH_GRID + 0) != -2 || \
    (MBP_WITH_GRID + 0) != 0 && (MBP_WITH_GRID + 0) != 1
#error "MBP_WITH_GRID must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_WITH_GRID
#define MBP_WITH_GRID 1
#endif
#ifndef MBP_WITH_HASH
#define MBP_WITH_HASH 1
#endif
#if (0 - MBP_WITH_HASH - 1) == 1 && (MBP_WITH_HASH + 0) != -2 || \
    (MBP_WITH_HASH + 0) != 0 && (MBP_WITH_HASH + 0) != 1
#error "MBP_WITH_HASH must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_WITH_HASH
#define MBP_WITH_HASH 1
#endif
#ifndef MBP_WITH_HGRID
#define MBP_WITH_HGRID 1
#endif
#if (0 - MBP_WITH_HGRID - 1) == 1 && (MBP_WITH_HGRID + 0) != -2 || \
    (MBP_WITH_HGRID + 0) != 0 && (MBP_WITH_HGRID + 0) != 1
#error "MBP_WITH_HGRID must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_WITH_HGRID
#define MBP_WITH_HGRID 1
#endif
/* Grid, hash and hgrid (one engine, mbp_cells.c). Grid only: the most cells of the world box
 * (params.grid_cells multiplied), 2 bytes of RAM each. */
#ifndef MBP_GRID_MAX_CELLS
#define MBP_GRID_MAX_CELLS (8 * MBP_MAX_BODIES)
#endif
#if (0 - MBP_GRID_MAX_CELLS - 1) == 1 && (MBP_GRID_MAX_CELLS + 0) != -2 || \
    (MBP_GRID_MAX_CELLS + 0) < 1 || (MBP_GRID_MAX_CELLS + 0) > 1048576
#error "MBP_GRID_MAX_CELLS must be 1..1048576: set it in your MBP_CONFIG_FILE"
#undef MBP_GRID_MAX_CELLS
#define MBP_GRID_MAX_CELLS (8 * MBP_MAX_BODIES)
#endif
/* Derived: grid, hash or hgrid compiled in (their options are checked only then). */
#define MBP__CELLS (MBP_WITH_GRID || MBP_WITH_HASH || MBP_WITH_HGRID)
/* Grid, hash, hgrid: (cell, body) entries, 12 (2D) or 14 (3D) bytes each; a body takes one per
 * cell it covers. When they run out, add and move return MBP_E_NOROOM (nothing is dropped). */
#ifndef MBP_GRID_MAX_ENTRIES
#define MBP_GRID_MAX_ENTRIES (4 * MBP_MAX_BODIES)
#define MBP__DEFAULT_GRID_MAX_ENTRIES
#endif
#if MBP__CELLS && ((0 - MBP_GRID_MAX_ENTRIES - 1) == 1 && (MBP_GRID_MAX_ENTRIES + 0) != -2 || \
                   (MBP_GRID_MAX_ENTRIES + 0) < 1 || (MBP_GRID_MAX_ENTRIES + 0) > 65535)
#ifdef MBP__DEFAULT_GRID_MAX_ENTRIES
#error "MBP_GRID_MAX_ENTRIES (default 4 x MBP_MAX_BODIES) must be 1..65535: with MBP_MAX_BODIES above 16383, set it in your MBP_CONFIG_FILE, or set MBP_WITH_GRID, MBP_WITH_HASH and MBP_WITH_HGRID to 0"
#else
#error "MBP_GRID_MAX_ENTRIES must be 1..65535: set it in your MBP_CONFIG_FILE"
#endif
#undef MBP_GRID_MAX_ENTRIES
#define MBP_GRID_MAX_ENTRIES 65535
#endif
/* Grid, hash, hgrid: a body covering more cells than this is 'large': it takes no entries and
 * is tested against every body each frame (O(n) per large body), so one wall or a body larger
 * than the world cannot eat the entries. */
#ifndef MBP_GRID_MAX_CELLS_PER_BODY
#define MBP_GRID_MAX_CELLS_PER_BODY 16
#endif
#if MBP__CELLS && ((0 - MBP_GRID_MAX_CELLS_PER_BODY - 1) == 1 && \
                       (MBP_GRID_MAX_CELLS_PER_BODY + 0) != -2 || \
                   (MBP_GRID_MAX_CELLS_PER_BODY + 0) < 1 || \
                   (MBP_GRID_MAX_CELLS_PER_BODY + 0) > 1024)
#error "MBP_GRID_MAX_CELLS_PER_BODY must be 1..1024: set it in your MBP_CONFIG_FILE"
#undef MBP_GRID_MAX_CELLS_PER_BODY
#define MBP_GRID_MAX_CELLS_PER_BODY 16
#endif
/* Hash and hgrid: buckets of the cell table, a power of two, 2 bytes each. Default: the
 * smallest power of two that gives 4 per body, at least 256 and at most 65536 (so that a
 * capacity between two steps pays at most twice the 4 per body, not four times). */
#ifndef MBP_HASH_BUCKETS
#if MBP_MAX_BODIES <= 64
#define MBP_HASH_BUCKETS 256
#elif MBP_MAX_BODIES <= 128
#define MBP_HASH_BUCKETS 512
#elif MBP_MAX_BODIES <= 256
#define MBP_HASH_BUCKETS 1024
#elif MBP_MAX_BODIES <= 512
#define MBP_HASH_BUCKETS 2048
#elif MBP_MAX_BODIES <= 1024
#define MBP_HASH_BUCKETS 4096
#elif MBP_MAX_BODIES <= 2048
#define MBP_HASH_BUCKETS 8192
#elif MBP_MAX_BODIES <= 4096
#define MBP_HASH_BUCKETS 16384
#elif MBP_MAX_BODIES <= 8192
#define MBP_HASH_BUCKETS 32768
#else
#define MBP_HASH_BUCKETS 65536 /* the cell entries, at most 65535, fill no more */
#endif
#endif
#if (0 - MBP_HASH_BUCKETS - 1) == 1 && (MBP_HASH_BUCKETS + 0) != -2 || \
    (MBP_HASH_BUCKETS + 0) < 1 || (MBP_HASH_BUCKETS + 0) > 1048576 || \
    ((MBP_HASH_BUCKETS + 0) & ((MBP_HASH_BUCKETS + 0) - 1))
#error "MBP_HASH_BUCKETS must be a power of two, 1..1048576: set it in your MBP_CONFIG_FILE"
#undef MBP_HASH_BUCKETS
#define MBP_HASH_BUCKETS 1024
#endif
/* Hgrid: levels; each level's cell is twice the previous one's edge, the finest is
 * params.cell_size. 8 levels span sizes 1 to 128 cells; coarser bodies count as large. */
#ifndef MBP_HGRID_LEVELS
#define MBP_HGRID_LEVELS 8
#endif
#if MBP_WITH_HGRID && ((0 - MBP_HGRID_LEVELS - 1) == 1 && (MBP_HGRID_LEVELS + 0) != -2 || \
                       (MBP_HGRID_LEVELS + 0) < 1 || (MBP_HGRID_LEVELS + 0) > 16)
#error "MBP_HGRID_LEVELS must be 1..16: set it in your MBP_CONFIG_FILE"
#undef MBP_HGRID_LEVELS
#define MBP_HGRID_LEVELS 8
#endif
#ifndef MBP_WITH_TREE
#define MBP_WITH_TREE 1
#endif
#if (0 - MBP_WITH_TREE - 1) == 1 && (MBP_WITH_TREE + 0) != -2 || \
    (MBP_WITH_TREE + 0) != 0 && (MBP_WITH_TREE + 0) != 1
#error "MBP_WITH_TREE must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_WITH_TREE
#define MBP_WITH_TREE 1
#endif
#if MBP_WITH_TREE && MBP_MAX_BODIES > 32767
#error "MBP_WITH_TREE (on by default) needs MBP_MAX_BODIES <= 32767 (2N-1 nodes, 16-bit indices): lower MBP_MAX_BODIES or set MBP_WITH_TREE to 0"
#endif
/* Tree only: the height bound and the traversal stack. The tree is AVL-balanced, so n leaves
 * give a height h with Fib(h+2) <= n (mbp_tree_nodes.c proves it); MBP_TREE_HEIGHT_MAX is that
 * h for n = MBP_MAX_BODIES. A depth-first walk needs h+1 stack entries of 2 bytes (on the C
 * stack). */
#if MBP_MAX_BODIES < 2
#define MBP_TREE_HEIGHT_MAX 0
#elif MBP_MAX_BODIES < 3
#define MBP_TREE_HEIGHT_MAX 1
#elif MBP_MAX_BODIES < 5
#define MBP_TREE_HEIGHT_MAX 2
#elif MBP_MAX_BODIES < 8
#define MBP_TREE_HEIGHT_MAX 3
#elif MBP_MAX_BODIES < 13
#define MBP_TREE_HEIGHT_MAX 4
#elif MBP_MAX_BODIES < 21
#define MBP_TREE_HEIGHT_MAX 5
#elif MBP_MAX_BODIES < 34
#define MBP_TREE_HEIGHT_MAX 6
#elif MBP_MAX_BODIES < 55
#define MBP_TREE_HEIGHT_MAX 7
#elif MBP_MAX_BODIES < 89
#define MBP_TREE_HEIGHT_MAX 8
#elif MBP_MAX_BODIES < 144
#define MBP_TREE_HEIGHT_MAX 9
#elif MBP_MAX_BODIES < 233
#define MBP_TREE_HEIGHT_MAX 10
#elif MBP_MAX_BODIES < 377
#define MBP_TREE_HEIGHT_MAX 11
#elif MBP_MAX_BODIES < 610
#define MBP_TREE_HEIGHT_MAX 12
#elif MBP_MAX_BODIES < 987
#define MBP_TREE_HEIGHT_MAX 13
#elif MBP_MAX_BODIES < 1597
#define MBP_TREE_HEIGHT_MAX 14
#elif MBP_MAX_BODIES < 2584
#define MBP_TREE_HEIGHT_MAX 15
#elif MBP_MAX_BODIES < 4181
#define MBP_TREE_HEIGHT_MAX 16
#elif MBP_MAX_BODIES < 6765
#define MBP_TREE_HEIGHT_MAX 17
#elif MBP_MAX_BODIES < 10946
#define MBP_TREE_HEIGHT_MAX 18
#elif MBP_MAX_BODIES < 17711
#define MBP_TREE_HEIGHT_MAX 19
#elif MBP_MAX_BODIES < 28657
#define MBP_TREE_HEIGHT_MAX 20
#else
#define MBP_TREE_HEIGHT_MAX 21
#endif
#ifndef MBP_TREE_STACK
#define MBP_TREE_STACK (MBP_TREE_HEIGHT_MAX + 1)
#endif
#if MBP_WITH_TREE && ((0 - MBP_TREE_STACK - 1) == 1 && (MBP_TREE_STACK + 0) != -2 || \
                      (MBP_TREE_STACK + 0) < MBP_TREE_HEIGHT_MAX + 1 || (MBP_TREE_STACK + 0) > 64)
#error "MBP_TREE_STACK must be MBP_TREE_HEIGHT_MAX+1..64: remove it from your MBP_CONFIG_FILE"
#undef MBP_TREE_STACK
#define MBP_TREE_STACK (MBP_TREE_HEIGHT_MAX + 1)
#endif
#ifndef MBP_WITH_QUADTREE
#define MBP_WITH_QUADTREE 1
#endif
#if (0 - MBP_WITH_QUADTREE - 1) == 1 && (MBP_WITH_QUADTREE + 0) != -2 || \
    (MBP_WITH_QUADTREE + 0) != 0 && (MBP_WITH_QUADTREE + 0) != 1
#error "MBP_WITH_QUADTREE must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_WITH_QUADTREE
#define MBP_WITH_QUADTREE 1
#endif
/* Quadtree (octree) only: the node pool, 18 (2D) or 28 (3D) bytes a node. A body needs the
 * nodes of the path from the root to its node; bodies close together share them. When the pool
 * runs short, a body lives in the deepest node of its path the pool could supply (pairs stay
 * exact, walks meet more bodies): nothing fails. Default: 2 per body (at most 65534). */
#ifndef MBP_QUADTREE_NODES
#define MBP_QUADTREE_NODES (2 * MBP_MAX_BODIES <= 65534 ? 2 * MBP_MAX_BODIES : 65534)
#endif
#if MBP_WITH_QUADTREE && ((0 - MBP_QUADTREE_NODES - 1) == 1 && (MBP_QUADTREE_NODES + 0) != -2 || \
                          (MBP_QUADTREE_NODES + 0) < 1 || (MBP_QUADTREE_NODES + 0) > 65534)
#error "MBP_QUADTREE_NODES must be 1..65534: set it in your MBP_CONFIG_FILE"
#undef MBP_QUADTREE_NODES
#define MBP_QUADTREE_NODES 64
#endif
#if !(MBP_WITH_BRUTE || MBP_WITH_SWEEP || MBP_WITH_SAP || MBP_WITH_GRID || MBP_WITH_HASH || \
      MBP_WITH_HGRID || MBP_WITH_TREE || MBP_WITH_QUADTREE)
#error "no backend compiled in: set at least one MBP_WITH_<backend> to 1"
#endif

/* Shapes beyond box and sphere (docs/shapes.md): oriented boxes, k-DOPs (8-DOP in 2D, 14-DOP
 * in 3D) and capsules, each with its overlap test against every shape. Each costs flash (make
 * bench-shapes prints how much); bodies of these shapes keep their shape in a per-world pool of
 * MBP_MAX_SHAPES entries. Off by default: the core calls the shape code for every pair and move
 * once any is compiled in, so a program of boxes and spheres would link it (several KB) and pay
 * for the pool on every move without using it. 1 compiles a shape in. */
#ifndef MBP_WITH_OBB
#define MBP_WITH_OBB 0
#endif
#if (0 - MBP_WITH_OBB - 1) == 1 && (MBP_WITH_OBB + 0) != -2 || \
    (MBP_WITH_OBB + 0) != 0 && (MBP_WITH_OBB + 0) != 1
#error "MBP_WITH_OBB must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_WITH_OBB
#define MBP_WITH_OBB 0
#endif
#ifndef MBP_WITH_KDOP
#define MBP_WITH_KDOP 0
#endif
#if (0 - MBP_WITH_KDOP - 1) == 1 && (MBP_WITH_KDOP + 0) != -2 || \
    (MBP_WITH_KDOP + 0) != 0 && (MBP_WITH_KDOP + 0) != 1
#error "MBP_WITH_KDOP must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_WITH_KDOP
#define MBP_WITH_KDOP 0
#endif
#ifndef MBP_WITH_CAPSULE
#define MBP_WITH_CAPSULE 0
#endif
#if (0 - MBP_WITH_CAPSULE - 1) == 1 && (MBP_WITH_CAPSULE + 0) != -2 || \
    (MBP_WITH_CAPSULE + 0) != 0 && (MBP_WITH_CAPSULE + 0) != 1
#error "MBP_WITH_CAPSULE must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_WITH_CAPSULE
#define MBP_WITH_CAPSULE 0
#endif
/* Rectangle-swept spheres (mbp_rss): the points within a radius of a rectangle. Their tests
 * are built from the oriented box's and the capsule's, so it needs both: 1 needs MBP_WITH_OBB
 * and MBP_WITH_CAPSULE 1 too. */
#ifndef MBP_WITH_RSS
#define MBP_WITH_RSS 0
#endif
#if (0 - MBP_WITH_RSS - 1) == 1 && (MBP_WITH_RSS + 0) != -2 || \
    (MBP_WITH_RSS + 0) != 0 && (MBP_WITH_RSS + 0) != 1
#error "MBP_WITH_RSS must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_WITH_RSS
#define MBP_WITH_RSS 0
#endif
#if MBP_WITH_RSS && !(MBP_WITH_OBB && MBP_WITH_CAPSULE)
#error "MBP_WITH_RSS needs MBP_WITH_OBB and MBP_WITH_CAPSULE: set them to 1 in your MBP_CONFIG_FILE"
#undef MBP_WITH_RSS
#define MBP_WITH_RSS 0
#endif
/* Fast bodies (mbp_set_fast()): their broad-phase box covers their motion over the step. A fast
 * box body keeps its own box in the shape pool. Off by default, as the shapes. */
#ifndef MBP_WITH_FAST
#define MBP_WITH_FAST 0
#endif
#if (0 - MBP_WITH_FAST - 1) == 1 && (MBP_WITH_FAST + 0) != -2 || \
    (MBP_WITH_FAST + 0) != 0 && (MBP_WITH_FAST + 0) != 1
#error "MBP_WITH_FAST must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_WITH_FAST
#define MBP_WITH_FAST 0
#endif
/* Derived: the world has a shape pool when any of the above is on. */
#define MBP__SHAPES (MBP_WITH_OBB || MBP_WITH_KDOP || MBP_WITH_CAPSULE || MBP_WITH_RSS)
#define MBP__POOL (MBP__SHAPES || MBP_WITH_FAST)
/* Entries of the shape pool: one per body that is an oriented box, a k-DOP, a capsule, an RSS
 * or a fast box. Each costs the largest shape compiled in (2D: 20 to 40 bytes, 3D: 32 to 64
 * bytes), and every body 2 bytes more for its index; none of it exists when MBP__POOL is 0.
 * When the pool is full, adding or moving such a body returns MBP_E_FULL. */
#ifndef MBP_MAX_SHAPES
#define MBP_MAX_SHAPES ((MBP_MAX_BODIES + 3) / 4)
#endif
#if (0 - MBP_MAX_SHAPES - 1) == 1 && (MBP_MAX_SHAPES + 0) != -2 || \
    (MBP_MAX_SHAPES + 0) < 1 || (MBP_MAX_SHAPES + 0) > MBP_MAX_BODIES
#error "MBP_MAX_SHAPES must be 1..MBP_MAX_BODIES: set it in your MBP_CONFIG_FILE"
#undef MBP_MAX_SHAPES
#define MBP_MAX_SHAPES ((MBP_MAX_BODIES + 3) / 4)
#endif

/* Programmer errors (NULL world, uninitialised world) call mbp_port_assert_failed().
 * 0 removes the checks and their flash; such errors are then undefined behaviour. */
#ifndef MBP_ASSERT
#define MBP_ASSERT 1
#endif
#if (0 - MBP_ASSERT - 1) == 1 && (MBP_ASSERT + 0) != -2 || \
    (MBP_ASSERT + 0) != 0 && (MBP_ASSERT + 0) != 1
#error "MBP_ASSERT must be 0 or 1 (an empty #define is neither): set it in your MBP_CONFIG_FILE"
#undef MBP_ASSERT
#define MBP_ASSERT 1
#endif

/* Derived: the pair hash table has 1.5 times MBP_MAX_PAIRS slots, rounded up (3 bytes per pair of
 * capacity with 16-bit slots), and so always at least one more slot than pairs: a probe ends at an
 * empty slot. No power-of-two rounding: mbp_pairs.c maps a 16-bit hash onto the table by a
 * multiply. A full set loads the table to 2/3 (linear probing: about 2 probes to find a pair, 5 to
 * miss); the usual set, far below its capacity, much less. 1.25 slots per pair (0.5 bytes less)
 * measured up to 2% slower on the M4 bench's dense and smash scenes. */
#define MBP_PAIR_HASH_SIZE ((unsigned long)MBP_MAX_PAIRS + ((unsigned long)MBP_MAX_PAIRS + 1UL) / 2UL)

/* A number that changes with every option that changes the world's layout or meaning; mbp_init()
 * compares the application's with the library's. */
#define MBP_CONFIG_SIGNATURE                                                                       \
    ((unsigned long)MBP_MAX_BODIES * 2654435761UL ^ (unsigned long)MBP_MAX_PAIRS * 40503UL ^         \
     (unsigned long)MBP_MAX_EVENTS * 9973UL ^ (unsigned long)MBP_FIXED_FRAC_BITS << 24 ^             \
     (unsigned long)MBP_WITH_SPHERES << 23 ^ (unsigned long)MBP_WITH_EVENTS << 22 ^               \
     (unsigned long)MBP_MAX_SHAPES * 7919UL ^                                                      \
     (unsigned long)(MBP_WITH_OBB | MBP_WITH_KDOP << 1 | MBP_WITH_CAPSULE << 2 | MBP_WITH_FAST << 3 | \
                     MBP_WITH_RSS << 4) << 27 ^ \
     (unsigned long)(MBP_WITH_BRUTE | MBP_WITH_SWEEP << 1 | MBP_WITH_SAP << 2 | MBP_WITH_GRID << 3 | \
                     MBP_WITH_HASH << 4 | MBP_WITH_HGRID << 5 | MBP_WITH_TREE << 6) << 16)

#endif /* MBP_CONFIG_H */
