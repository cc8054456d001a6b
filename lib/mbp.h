/* SPDX-License-Identifier: MIT */
/* mbp.h: micro broad phase, the one public header.
 *
 * A world holds up to MBP_MAX_BODIES bodies, each an axis-aligned box or a sphere (a circle in
 * 2D), and finds every pair of bodies that overlap. You declare the world (static, or on a
 * stack large enough), initialise it with a backend, add, move and remove bodies, call
 * mbp_update() once a frame, then read the overlapping pairs and the pairs that began and ended
 * since the last update. The library never allocates, keeps no global state and calls nothing
 * from the platform but the assert hook (port/mbp_port.h).
 *
 * Units: coordinates are mbp_scalar (float, or fixed point with MBP_FIXED_FRAC_BITS fraction
 * bits), in whatever unit you like, within [-MBP_RANGE, MBP_RANGE] (mbp_scalar.h explains why).
 * Boxes are closed: boxes that touch overlap, and a box of zero size (a point) is valid.
 *
 * Errors: data that can be wrong at run time (a box, a handle, a full world) returns a status;
 * on error nothing is changed. Programmer errors (a NULL or uninitialised world) go to the
 * assert hook when MBP_ASSERT is 1.
 *
 * Threads: a world is not locked. Use one world from one thread, or lock around it.
 */
#ifndef MBP_H
#define MBP_H

/* mbp's version, as in CHANGELOG.md and library.json (CMakeLists.txt reads it from here).
 * 0.x: the API may still change between minor versions. */
#define MBP_VERSION_MAJOR 0
#define MBP_VERSION_MINOR 1
#define MBP_VERSION_PATCH 0

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include "mbp_config.h"
#include "mbp_scalar.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. Every function that can fail returns one; MBP_OK is 0. */
typedef enum mbp_status {
    MBP_OK = 0,
    MBP_E_BADBOX,      /* NaN or infinite coordinate, min > max, negative radius or margin */
    MBP_E_RANGE,       /* a coordinate outside [-MBP_RANGE, MBP_RANGE] */
    MBP_E_FULL,        /* every body slot is taken (removed slots free up at the next update),
                        * or every entry of the shape pool (MBP_MAX_SHAPES) */
    MBP_E_STALE,       /* null handle, removed body, or a handle from another world */
    MBP_E_PAIRS_FULL,  /* mbp_update(): the pair set overflowed this frame; see mbp_stats */
    MBP_E_EVENTS_FULL, /* mbp_update(): this frame's events outgrew the pair set's free entries
                        * and MBP_MAX_EVENTS; see mbp_stats */
    MBP_E_BACKEND,     /* mbp_init(): this backend is not compiled in (MBP_WITH_<backend>) */
    MBP_E_CONFIG,      /* mbp_init(): application and library were built with other options */
    MBP_E_PARAM,       /* a parameter outside its documented range */
    MBP_E_NOROOM,      /* a backend's own fixed storage is full (grid entries, tree stack) */
    MBP_E_TRUNCATED    /* a query found more results than the caller's buffer holds */
} mbp_status;

/* The broad-phase algorithms. Which exist depends on MBP_WITH_<backend>. */
typedef enum mbp_backend {
    MBP_BRUTE = 1, /* every pair tested: the reference; fastest below a few dozen bodies */
    MBP_SWEEP,     /* single-axis sort and sweep */
    MBP_SAP,       /* incremental sweep and prune on every axis */
    MBP_GRID,      /* uniform grid over a bounded world */
    MBP_HASH,      /* spatial hash, unbounded world */
    MBP_HGRID,     /* hierarchical grid, mixed sizes */
    MBP_TREE,      /* dynamic AABB tree with fat leaves */
    MBP_QUADTREE   /* loose quadtree (2D) / octree (3D) over a bounded world, mixed sizes */
} mbp_backend;

/* Axis-aligned box: min[k] <= max[k] on every axis k. */
typedef struct mbp_aabb {
    mbp_scalar min[MBP_DIM];
    mbp_scalar max[MBP_DIM];
} mbp_aabb;

/* Sphere (circle in 2D): centre c and radius r >= 0. */
typedef struct mbp_sphere {
    mbp_scalar c[MBP_DIM];
    mbp_scalar r;
} mbp_sphere;

/* ---- shapes beyond box and sphere (docs/shapes.md) ----
 * The types exist in every build; the functions that use them need MBP_WITH_OBB, MBP_WITH_KDOP,
 * MBP_WITH_CAPSULE or MBP_WITH_RSS. */

/* A rotation entry, in [-1, 1]: float, or in fixed point a signed Q30 number (MBP_UNIT_ONE is
 * 1.0), whatever MBP_FIXED_FRAC_BITS is: rotations keep 30 bits however coarse coordinates are. */
#if MBP_SCALAR == MBP_FIXED
typedef int32_t mbp_unit;
#define MBP_UNIT_ONE ((mbp_unit)0x40000000)
#define MBP_UNIT_LIT(x) ((mbp_unit)((x) * 1073741824.0)) /* a constant: folded, no float code */
#else
typedef float mbp_unit;
#define MBP_UNIT_ONE 1.0f
#define MBP_UNIT_LIT(x) ((mbp_unit)(x))
#endif

/* Oriented box: the points c + sum_i t_i rot[i] with |t_i| <= h[i]. Row rot[i] is the box's i-th
 * axis in world coordinates; the rows must be orthonormal within 2^-10 (each |rot[i].rot[j] -
 * (i == j)| <= 2^-10), or the box is refused (MBP_E_BADBOX). The library uses the matrix as
 * given and never normalises it: the tight box and the never-miss promise hold for the shape the
 * rows span (docs/shapes.md). No trigonometry inside: in 2D mbp_obb_rot2() fills rot from a
 * cosine and sine. */
typedef struct mbp_obb {
    mbp_scalar c[MBP_DIM];
    mbp_scalar h[MBP_DIM];
    mbp_unit rot[MBP_DIM][MBP_DIM];
} mbp_obb;

/* k-DOP: the points whose projections onto each of MBP_KDOP_AXES axes lie in [min[j], max[j]].
 * 2D (8-DOP): x, y, x+y, x-y. 3D (14-DOP): x, y, z, x+y+z, x+y-z, x-y+z, -x+y+z. Diagonal bounds
 * are plain sums (not divided by a length), and are coordinates: within +-MBP_RANGE. */
#define MBP_KDOP_AXES (MBP_DIM == 2 ? 4 : 7)
typedef struct mbp_kdop {
    mbp_scalar min[MBP_KDOP_AXES];
    mbp_scalar max[MBP_KDOP_AXES];
} mbp_kdop;

/* Capsule: the points within r of the segment a-b (a stadium in 2D). a == b is a sphere. */
typedef struct mbp_capsule {
    mbp_scalar a[MBP_DIM];
    mbp_scalar b[MBP_DIM];
    mbp_scalar r;
} mbp_capsule;

/* Rectangle-swept sphere (RSS): the points within r of a rectangle. The rectangle is the points
 * c + t0 rot[0] + t1 rot[1] with |t0| <= h[0], |t1| <= h[1]. In 3D it is a flat rectangle in
 * space and rot[2] is its normal; in 2D it is a rectangle in the plane and the RSS a rounded
 * rectangle (a rectangle swept by a circle). The rows of rot must be orthonormal within 2^-10
 * (as an oriented box's), h >= 0, r >= 0, and the rectangle (not its radius) must lie within
 * the range. h = 0 is a sphere, one h zero a capsule. Needs MBP_WITH_RSS. */
typedef struct mbp_rss {
    mbp_scalar c[MBP_DIM];
    mbp_scalar h[2];
    mbp_unit rot[MBP_DIM][MBP_DIM];
    mbp_scalar r;
} mbp_rss;

/* A shape of any kind: set kind, then the member of u it names. */
typedef enum mbp_shape_kind {
    MBP_SHAPE_BOX = 1, /* u.box */
    MBP_SHAPE_SPHERE,  /* u.sphere */
    MBP_SHAPE_OBB,     /* u.obb (MBP_WITH_OBB) */
    MBP_SHAPE_KDOP,    /* u.kdop (MBP_WITH_KDOP) */
    MBP_SHAPE_CAPSULE, /* u.capsule (MBP_WITH_CAPSULE) */
    MBP_SHAPE_RSS      /* u.rss (MBP_WITH_RSS) */
} mbp_shape_kind;

typedef struct mbp_shape {
    uint8_t kind; /* mbp_shape_kind */
    union {
        mbp_aabb box;
        mbp_sphere sphere;
        mbp_obb obb;
        mbp_kdop kdop;
        mbp_capsule capsule;
        mbp_rss rss;
    } u;
} mbp_shape;

/* A body handle: pass by value. All-zero is the null handle. slot1 is the body index plus one;
 * gen changes each time the slot is reused, and starts at a value mixed from the world's id and
 * address, so a stale handle is always refused and a foreign one is refused unless its 16-bit
 * generation happens to match (odds 1 in 65535 per try). mbp_init() on a struct that holds an
 * initialised world carries every slot's generation on, so the old world's handles are refused
 * in the new one too. The limit: a struct that never held an initialised world (or whose memory
 * was overwritten since: a reused stack frame, a cleared struct) starts again from the id and
 * address, so a handle kept from an earlier world at the same address with the same id can pass
 * again. Do not keep handles past their world's lifetime, or give each world a new id. */
typedef struct mbp_body {
    uint16_t slot1;
    uint16_t gen;
} mbp_body;

/* An overlapping pair of bodies by index, a < b. Indices are 0..MBP_MAX_BODIES-1; turn one into
 * a handle or user value with mbp_handle() or mbp_user(). */
typedef struct mbp_pair {
    uint16_t a;
    uint16_t b;
} mbp_pair;

/* A ray cast hit: body index and the fraction t in [0, 1] of the segment where it enters the
 * body's box, or sphere for a sphere body (0 when the start point is inside). */
typedef struct mbp_hit {
    uint16_t index;
    mbp_scalar t;
} mbp_hit;

/* Counters of the last mbp_update(). */
typedef struct mbp_stats {
    uint32_t pairs;       /* overlapping pairs now */
    uint32_t begun;       /* pairs that began this frame (events stored; every one with
                           * MBP_WITH_EVENTS 0, which stores none) */
    uint32_t ended;       /* pairs that ended this frame (likewise) */
    uint32_t lost_pairs;  /* overlapping pairs not stored: the pair set was full (0 normally) */
    uint32_t lost_events; /* events not stored: the pair set's free entries and MBP_MAX_EVENTS
                           * were full (0 normally) */
    uint32_t tests;       /* box tests the backend made: its work, comparable across backends */
} mbp_stats;

/* Filter bits: a pair is reported only when (cat_a & mask_b) and (cat_b & mask_a) are nonzero. */
#define MBP_DEFAULT_CATEGORY 0x0001u
#define MBP_DEFAULT_MASK 0xFFFFu

/* World parameters; mbp_params_default() fills every field. Fields a backend does not use are
 * ignored by it. */
typedef struct mbp_params {
    mbp_backend backend; /* default: the first compiled in of SAP, TREE, GRID, SWEEP, BRUTE */
    uint16_t id;         /* mixed into handle generations to catch handles of another world */
    /* Tree: a leaf's fat box is the body's box grown on every side by tree_margin (coordinate
     * units, 0..MBP_RANGE, default 1/16) plus tree_margin_frac/256 of its size on that axis
     * (0..256, default 0), then extended ahead by tree_sweep (0..16, default 8) times the
     * displacement since the last update, at most twice the box with its margins: a body moving
     * steadily is re-inserted about once in tree_sweep frames. Larger: fewer re-insertions, more
     * candidate pairs. While the candidates crowd the pair set, the tree halves these (up to 3
     * times) for the boxes it makes. */
    mbp_scalar tree_margin;
    uint16_t tree_margin_frac;
    uint8_t tree_sweep;
    /* Grid, hash, hgrid: edge of a cell (hgrid: of the finest level), in coordinate units,
     * > 0 (fixed: >= 1 raw unit; float: >= 2^-40), default 4.0. About twice the usual body is a
     * good start; in fixed point a power of two of raw units turns a division into a shift. */
    mbp_scalar cell_size;
    /* Grid: the world box, grid_cells[k] cells (1..65535, their product <= MBP_GRID_MAX_CELLS)
     * from grid_origin on axis k. Bodies outside it go into the border cells (exact, slower).
     * Default: origin 0, as many cells per axis as MBP_GRID_MAX_CELLS allows for a square/cube. */
    mbp_scalar grid_origin[MBP_DIM];
    uint16_t grid_cells[MBP_DIM];
    /* Quadtree (octree): the world box is the square (cube) of edge quadtree_cell *
     * 2^quadtree_depth from the min corner quadtree_origin (each within the range). A body lives
     * in the node of the cell holding its centre, at the deepest level whose cell edge is at
     * least its largest edge; a body whose centre is outside the world box, or larger than it,
     * lives in the root (exact, but tested against every body whose walk passes the root).
     * quadtree_cell: the finest cell's edge, coordinate units, > 0 (fixed: >= 1 raw unit and
     * quadtree_cell * 2^quadtree_depth < 2^32 raw units; float: >= 2^-40); quadtree_depth:
     * 0..15 levels below the root. About the usual body's size for the cell, and a depth to
     * cover the world. Default: cell 4 units, depth 6 (fewer in fixed point when 256 units
     * would pass 2^32 raw units), the world box centred on 0. */
    mbp_scalar quadtree_origin[MBP_DIM];
    mbp_scalar quadtree_cell;
    uint8_t quadtree_depth;
    /* Hash, hgrid: buckets used, a power of two 1..MBP_HASH_BUCKETS (default); fewer only to
     * test hash collisions. */
    uint32_t hash_buckets;
    /* Sweep: the axis sorted and swept, 0..MBP_DIM-1, or MBP_AXIS_AUTO (default): the axis along
     * which the body centres spread most (switching only for a 25% gain), chosen at the first
     * update, then again every 16 updates, when the bodies jump (the sort gives up), or when
     * their spread along the sorted axis falls below 3/4 of what it was at the choice. */
    uint8_t sweep_axis;
    /* SAP: insertion-sort swaps allowed per body in one update (1..65535, default 32), times
     * log2(bodies) / 10 from 1024 bodies on; a body that jumps far counts one swap per 32
     * endpoints it passes. An update that would exceed them rebuilds in O(n log n) instead
     * (bulk adds, many bodies teleporting at once). */
    uint16_t sap_budget;
    /* 1: report pairs whose boxes overlap (after the filters) without the sphere and shape
     * tests: cheaper, more pairs. 0 (default): only pairs whose volumes overlap. */
    uint8_t aabb_only;
#if MBP_WITH_SAP && MBP_SAP_QUANTIZED
    /* SAP with MBP_SAP_QUANTIZED: the box mapped onto 16-bit endpoints (min < max on every
     * axis; default +-1024 units, clamped to the range). Bodies outside it still pair exactly,
     * only more slowly. */
    mbp_aabb sap_world;
#endif
} mbp_params;

/* For mbp_params.sweep_axis: choose the axis of largest spread (when: see sweep_axis). */
#define MBP_AXIS_AUTO 0xFFu

#include "mbp_world_types.h" /* the plain-data layout of mbp_world: read it, don't write it */

/* ---- bounding volumes (mbp_volume.c): pure functions, no world needed ---- */

/* MBP_OK, MBP_E_BADBOX (NaN, infinite or min > max), or MBP_E_RANGE (outside the range). */
mbp_status mbp_aabb_check(const mbp_aabb *box);
/* MBP_OK, MBP_E_BADBOX (NaN, infinite, r < 0) or MBP_E_RANGE (c or r outside the range). */
mbp_status mbp_sphere_check(const mbp_sphere *s);
/* Closed-interval overlap: touching boxes overlap. */
bool mbp_aabb_overlap(const mbp_aabb *a, const mbp_aabb *b);
/* True when inner lies inside outer (borders included). */
bool mbp_aabb_contains(const mbp_aabb *outer, const mbp_aabb *inner);
/* True when point p (MBP_DIM scalars) lies in the box (borders included). */
bool mbp_aabb_contains_point(const mbp_aabb *box, const mbp_scalar p[MBP_DIM]);
/* out = the smallest box holding a and b; out may alias a or b. */
void mbp_aabb_union(const mbp_aabb *a, const mbp_aabb *b, mbp_aabb *out);
/* out = box grown by margin (>= 0) on every side, clamped to the range; out may alias box. */
void mbp_aabb_fatten(const mbp_aabb *box, mbp_scalar margin, mbp_aabb *out);
/* out = the space-time bound of box moved by displacement d (= velocity * dt): the union of the
 * box at its start and at its end, clamped to the range; out may alias box. */
void mbp_aabb_sweep(const mbp_aabb *box, const mbp_scalar d[MBP_DIM], mbp_aabb *out);
/* Exact sphere tests (squared distances in 64-bit integers in fixed point). Touching overlaps. */
bool mbp_sphere_overlap(const mbp_sphere *a, const mbp_sphere *b);
bool mbp_sphere_aabb_overlap(const mbp_sphere *s, const mbp_aabb *box);
bool mbp_sphere_contains_point(const mbp_sphere *s, const mbp_scalar p[MBP_DIM]);
/* out = the box of the sphere, clamped to the range (which loses no overlap: see mbp_scalar.h). */
void mbp_sphere_aabb(const mbp_sphere *s, mbp_aabb *out);
/* Segment p0->p1 against a box. Returns true on a hit and sets *t to the entry fraction in
 * [0, 1] (0 when p0 is inside). The hit decision is exact in fixed point; t is rounded down. */
bool mbp_segment_aabb(const mbp_scalar p0[MBP_DIM], const mbp_scalar p1[MBP_DIM],
                      const mbp_aabb *box, mbp_scalar *t);

/* ---- volumes fitted to points (mbp_fit*.c; docs/shapes.md, "Fitting volumes to points") ----
 * p[0..n-1] are n >= 1 points, each MBP_DIM coordinates within the range. Each function returns
 * MBP_OK; MBP_E_PARAM for n == 0; MBP_E_BADBOX or MBP_E_RANGE for the first bad point (as
 * mbp_aabb_check()); for the sphere, MBP_E_RANGE when its radius would exceed MBP_RANGE (points
 * spread over more than the range's width). On an error *out is unchanged. The volume holds every point exactly, on the stored values (in fixed point, in
 * integers; in float, with its radius or extents widened by a relative 2^-19 or less over the
 * rounding). No allocation; the points are read, never changed. */

/* out = the smallest box holding the points. Time O(n). */
mbp_status mbp_aabb_from_points(const mbp_scalar (*p)[MBP_DIM], uint32_t n, mbp_aabb *out);

/* out = the minimum enclosing sphere (circle in 2D) of the points, computed by Welzl's algorithm
 * without recursion. Tightness: fixed point, a radius at most 4 raw units above the exact minimum;
 * float, at most a relative 2^-16 above it plus an ulp of the centre's largest coordinate per
 * axis (docs/shapes.md). All points equal: radius 0 at that point. Time O(n) for points in any
 * natural order, O(n^(MBP_DIM+1)) in the worst order. */
mbp_status mbp_sphere_from_points(const mbp_scalar (*p)[MBP_DIM], uint32_t n, mbp_sphere *out);

#if MBP_WITH_OBB
/* out = an oriented box holding the points: the axes of their covariance (principal components:
 * closed form in 2D, MBP_DIM = 3 by Jacobi's method with 8 sweeps), the largest variance first,
 * extents from the points' projections, rounded up. When the box of the points (mbp_aabb_from_
 * points(), as an oriented box with the identity rows) has no larger area (volume), that is
 * returned instead: the result is never larger than the axis-aligned box. Covariance with no
 * preferred direction (all points equal, an isotropic cloud) gives the world's axes; collinear
 * and coplanar points give a flat box (extents of a few raw units, or a relative 2^-19 in
 * float, across). Extents that would exceed MBP_RANGE give the points' box too. The rows are
 * orthonormal within 2^-26: the box passes mbp_shape_check(). In
 * fixed point the covariance is summed in int64 from differences shifted to 15 bits: any n.
 * Time O(n). Needs MBP_WITH_OBB. */
mbp_status mbp_obb_from_points(const mbp_scalar (*p)[MBP_DIM], uint32_t n, mbp_obb *out);
#endif

#if MBP_WITH_RSS
/* out = a rectangle-swept sphere holding the points: mbp_obb_from_points()'s box, its thinnest
 * axis made the radius (3D: the rectangle is the box's middle section across that axis; 2D: the
 * rectangle is the box's long middle line, so the RSS is a stadium), the radius widened by a
 * relative 2^-20 and a raw unit for rows that are orthonormal only within 2^-26. Holds every
 * point exactly, on the stored values; never thicker than the box along that axis, its rounded
 * rim is what it adds. When that rectangle would leave the range, the points' axis-aligned box
 * is used the same way. MBP_OK, or as mbp_obb_from_points(); MBP_E_RANGE when the radius would
 * exceed MBP_RANGE, and in float when that box's rectangle, widened by a relative 2^-22 for its
 * rounded middle, would pass the range's end (points within about 2^-22 of MBP_RANGE, e.g. x
 * from 2^60 - 2^55 - 2^36 to 2^60). Time O(n). Needs MBP_WITH_RSS. */
mbp_status mbp_rss_from_points(const mbp_scalar (*p)[MBP_DIM], uint32_t n, mbp_rss *out);
#endif

/* ---- the world (mbp_world.c bodies, mbp_move.c box moves, mbp_update.c the frame,
 * mbp_output.c the output) ---- */

/* Fills p with the defaults: the best general backend compiled in, id 0. */
void mbp_params_default(mbp_params *p);

/* Initialises the world w (any contents before; the caller owns its memory, which must stay put
 * while in use) with params p (NULL for the defaults). Returns MBP_OK, MBP_E_BACKEND when the
 * backend is not compiled in, MBP_E_PARAM for a bad parameter, or MBP_E_CONFIG when this code
 * was built with other MBP_* options than the library. mbp_init is a macro: the symbol it calls
 * names MBP_DIM and MBP_SCALAR, so mixing those fails at link time, not at run time. */
#define mbp_init(w, p) MBP_INIT_SYMBOL((w), (p), (uint32_t)sizeof(mbp_world), MBP_CONFIG_SIGNATURE)

/* Adds a box body with user value `user` (any 32 bits, returned by mbp_user()), category
 * MBP_DEFAULT_CATEGORY and mask MBP_DEFAULT_MASK. On MBP_OK *out is its handle. Returns
 * MBP_E_BADBOX or MBP_E_RANGE for a bad box, MBP_E_FULL when no slot is free, MBP_E_NOROOM when
 * the backend's storage is full. The body takes part in pairs from the next mbp_update(). */
mbp_status mbp_add_box(mbp_world *w, const mbp_aabb *box, uint32_t user, mbp_body *out);

/* As mbp_add_box(), for a sphere body: it pairs only where the sphere itself overlaps the other
 * body's sphere or box (tested after the box test). Needs MBP_WITH_SPHERES 1 (off by default;
 * without it this function is not defined). */
mbp_status mbp_add_sphere(mbp_world *w, const mbp_sphere *s, uint32_t user, mbp_body *out);

/* Sets a body's volume to this box (a sphere body becomes a box body). Returns MBP_OK,
 * MBP_E_STALE, MBP_E_BADBOX, MBP_E_RANGE, MBP_E_NOROOM (backend storage full), or MBP_E_FULL (a
 * fast body, mbp_set_fast(), that becomes a box body needs a shape pool entry and none is free);
 * on an error the body keeps its old volume. Takes effect at the next mbp_update(). */
mbp_status mbp_move_box(mbp_world *w, mbp_body h, const mbp_aabb *box);

/* Moves n bodies at once: bodies[j] gets boxes[j], in order, each as mbp_move_box() would, in
 * one call (the world checked and the backend's kind read once; make bench's move_per_body
 * column gives the cost per body). Stops at the first entry that fails and returns its status:
 * entries before it are moved, it and the ones after are not; *done (may be NULL) receives the
 * number moved (n on MBP_OK). The arrays are read only during the call. */
mbp_status mbp_move_boxes(mbp_world *w, uint32_t n, const mbp_body *bodies,
                          const mbp_aabb *boxes, uint32_t *done);

/* Adds a static box body: as mbp_add_box(), but it never pairs with another static body, so
 * level geometry (walls, tiles) costs no pairs among itself, and a static body that does not
 * move costs nothing per frame in the incremental backends (SAP, tree). It pairs with every
 * other body as usual. It may be moved (mbp_move_box(), at the cost of any move) and stays
 * static; the class is fixed at the add: remove and add again to change it. */
mbp_status mbp_add_static_box(mbp_world *w, const mbp_aabb *box, uint32_t user, mbp_body *out);

/* Sets a body's volume to this sphere (a box body becomes a sphere body). As mbp_move_box().
 * Needs MBP_WITH_SPHERES 1, as mbp_add_sphere(). */
mbp_status mbp_move_sphere(mbp_world *w, mbp_body h, const mbp_sphere *s);

/* Sets the category and mask bits of a body (see MBP_DEFAULT_CATEGORY). MBP_OK or MBP_E_STALE.
 * While a body has other bits than the defaults, SAP's frames test the moved bodies' pairs in a
 * pass over the stored pairs (O(pairs), a few loads each) instead of O(changes). */
mbp_status mbp_set_filter(mbp_world *w, mbp_body h, uint16_t category, uint16_t mask);

/* Removes a body. Its pairs end in the next mbp_update()'s events, and its slot (and index) is
 * reused only after that update, so the ended events still name it. MBP_OK or MBP_E_STALE. */
mbp_status mbp_remove(mbp_world *w, mbp_body h);

/* Moves and removal by index, the identifier that pairs, events and queries give: no handle to
 * look up. As mbp_move_box(), mbp_move_boxes() and mbp_remove(), with the same statuses; an index
 * that names no body in use (free, removed, or not below MBP_MAX_BODIES) gives MBP_E_STALE and
 * changes nothing. An index has no generation: it names whatever body holds its slot now. From
 * one mbp_update() to the next, the indices of its pairs and begun events name the same bodies
 * (a body removed since gives MBP_E_STALE: its slot is not reused before the next update), but
 * an ended event's body that was removed before that update left its slot free, and a body
 * added since may hold it. Keep a handle for a body you name across updates. Cost: about that
 * of the handle calls. */
mbp_status mbp_move_box_at(mbp_world *w, uint16_t index, const mbp_aabb *box);
mbp_status mbp_move_boxes_at(mbp_world *w, uint32_t n, const uint16_t *index,
                             const mbp_aabb *boxes, uint32_t *done);
mbp_status mbp_remove_at(mbp_world *w, uint16_t index);

/* True when h is a live body of w. */
bool mbp_valid(const mbp_world *w, mbp_body h);

/* The current box of a body (for a sphere, the box of the sphere). MBP_OK or MBP_E_STALE. */
mbp_status mbp_get_box(const mbp_world *w, mbp_body h, mbp_aabb *out);

/* Moves the world's origin to offset (in units, each |offset[k]| <= MBP_RANGE): every body's
 * volume is translated by -offset, and so are the parameters placed in space (grid_origin,
 * quadtree_origin, the quantized SAP's sap_world, each clamped to the range). For a scrolling
 * world in fixed point, whose range is +-16384 units; in float, where precision falls away from
 * the origin, shift it to where the action is.
 * Pairs are kept: the next mbp_update() tests every pair again (a full frame) and gives no event
 * for a pair that still overlaps. In fixed point translation is exact, so no pair changes. In
 * float each coordinate is rounded: a pair within a rounding of touching may begin or end then.
 * Atomic: MBP_E_BADBOX for a NaN or infinite offset, MBP_E_RANGE when a body would leave the
 * range, MBP_E_NOROOM when the backend's storage cannot hold the translated bodies (a grid whose
 * cells they now straddle differently); in each case nothing changes. Cost: O(n) plus a build of
 * the backend, and the next update costs a full frame: call it seldom (when the focus has moved
 * far), not every frame. */
mbp_status mbp_shift_origin(mbp_world *w, const mbp_scalar offset[MBP_DIM]);

/* Index <-> handle and user value. mbp_handle() gives the null handle for a free index or one
 * past the world; after a body is removed, mbp_user() still returns its value until the index
 * is reused. mbp_user() of an index >= MBP_MAX_BODIES is a programmer error: it asserts (and
 * returns 0 when MBP_ASSERT is 0). */
static inline uint16_t mbp_index(mbp_body h)
{
    return (uint16_t)(h.slot1 - 1u);
}
mbp_body mbp_handle(const mbp_world *w, uint16_t index);
uint32_t mbp_user(const mbp_world *w, uint16_t index);

/* Number of live bodies. */
uint32_t mbp_body_count(const mbp_world *w);

/* Runs one frame: finds the pairs that overlap now, and the pairs that began and ended since the
 * last update. Returns MBP_OK; MBP_E_PAIRS_FULL when pairs were lost because the pair set was
 * full (every frame it happens; stats.lost_pairs says how many; the pairs stored are all true,
 * and the first frame with room is exact again); MBP_E_EVENTS_FULL when only events were lost
 * (the events go into the entries of the pair set that its pairs leave free, plus
 * MBP_MAX_EVENTS; stats.lost_events says how many; the pairs stay exact);
 * MBP_E_NOROOM when the backend's own storage overflowed. Time: see the backend's file. */
mbp_status mbp_update(mbp_world *w);

/* Counters of the last update. */
const mbp_stats *mbp_get_stats(const mbp_world *w);

/* Walks the overlapping pairs: start with *it = 0, call until false.
 *     uint32_t it = 0; mbp_pair p;
 *     while (mbp_next_pair(&w, &it, &p)) { ... }
 * The order is the pair set's own: free, and the same on every CPU and compiler for a given
 * backend and sequence of calls. After mbp_sort_pairs() it is ascending (by a, then b), the same
 * for every backend. Valid until the next call that changes the world. */
bool mbp_next_pair(const mbp_world *w, uint32_t *it, mbp_pair *out);

/* Number of overlapping pairs (as stats.pairs). */
uint32_t mbp_pair_count(const mbp_world *w);

/* Sorts the pair set in place so that mbp_next_pair() walks it in ascending order. Time
 * O(p log p) for p stored pairs, no recursion, no extra RAM. */
void mbp_sort_pairs(mbp_world *w);

/* The overlapping pairs as a plain array: *count receives their number (as mbp_pair_count()).
 *     uint32_t n; const mbp_pair *p = mbp_pairs(&w, &n);
 *     for (uint32_t k = 0; k < n; k++) narrow_phase(p[k].a, p[k].b);
 * The order is the one mbp_next_pair() walks, or ascending after mbp_sort_pairs(). O(1) when
 * every stored pair overlaps (box bodies on most backends); when the backend keeps candidates
 * that do not (spheres, shapes, filters, the tree's fat boxes), the first call after an update
 * moves the overlapping ones to the front in O(stored pairs). The array lives in the world: valid
 * until the next call that changes the world (mbp_update(), mbp_sort_pairs()). */
const mbp_pair *mbp_pairs(mbp_world *w, uint32_t *count);

#if MBP_WITH_EVENTS
/* The events of the last update, each list ascending (by a, then b), identical for every backend,
 * CPU and compiler. *count receives the length; the arrays live in the world, in the pair set's
 * entries above its pairs, and stay valid until the next mbp_update() (mbp_sort_pairs() and
 * mbp_pairs() leave them alone). With MBP_WITH_EVENTS 0 these two functions do not exist (the
 * statistics still count the pairs that began and ended). */
const mbp_pair *mbp_begun(const mbp_world *w, uint32_t *count);
const mbp_pair *mbp_ended(const mbp_world *w, uint32_t *count);
#endif

#if MBP_PAIR_USER
/* The per-pair user slots (MBP_PAIR_USER 1; with 0 these two functions do not exist): 32 bits of
 * your own per overlapping pair, e.g. a contact cache's index, that the library only stores and
 * moves. Slot k belongs to pair k of mbp_pairs(): the array is parallel to it, *count the same
 * number, in the same order (after mbp_sort_pairs() too; either call may come first). Read and
 * write slots 0..*count-1; the array lives in the world and is valid until the next call that
 * changes the world or sorts the pairs, as mbp_pairs()'s. A slot keeps its value across updates
 * for as long as its pair overlaps; a pair that begins starts at 0.
 *     uint32_t n; const mbp_pair *p = mbp_pairs(&w, &n); uint32_t *u = mbp_pair_users(&w, &n);
 *     for (uint32_t k = 0; k < n; k++) if (u[k] == 0) u[k] = new_contact(p[k].a, p[k].b);
 * O(1), or the O(stored pairs) split of mbp_pairs() when it has not run since the update. A NULL
 * or uninitialised world or a NULL count is a caller's bug: MBP_ASSERT catches it. */
uint32_t *mbp_pair_users(mbp_world *w, uint32_t *count);

/* The slots of the pairs that ended in the last update, parallel to mbp_ended() (same count, same
 * order): each ended pair's last value, so that you can free what it held. An ended pair's own
 * slot is back at 0 when it begins again. Read only; valid until the next mbp_update(). O(1). */
const uint32_t *mbp_ended_users(const mbp_world *w, uint32_t *count);
#endif

/* ---- queries: bodies as they are now (moves since the last update included) ---- */

/* Bodies whose volume overlaps box and whose category & mask is nonzero, ascending by index.
 * Writes up to cap indices to out (out may be NULL when cap is 0) and the number found to *count.
 * MBP_OK; MBP_E_TRUNCATED when more were found than cap: out then holds the cap smallest indices
 * (rays: the cap first hits), the same on every backend; MBP_E_BADBOX/MBP_E_RANGE for a bad box.
 * Time: O(found log cap) on top of the backend's walk. */
mbp_status mbp_query_box(const mbp_world *w, const mbp_aabb *box, uint16_t mask, uint16_t *out,
                         uint32_t cap, uint32_t *count);

/* Bodies whose volume contains point p, as mbp_query_box(). */
mbp_status mbp_query_point(const mbp_world *w, const mbp_scalar p[MBP_DIM], uint16_t mask,
                           uint16_t *out, uint32_t cap, uint32_t *count);

/* Bodies whose volume overlaps sphere *s (a circle in 2D; touching counts), as mbp_query_box():
 * the exact test against box, sphere and shape bodies (fast bodies: their bound of the step, as
 * for their pairs). MBP_E_BADBOX/MBP_E_RANGE for a bad sphere (as mbp_sphere_check()). In every
 * build; sphere bodies need MBP_WITH_SPHERES. */
mbp_status mbp_query_sphere(const mbp_world *w, const mbp_sphere *s, uint16_t mask,
                            uint16_t *out, uint32_t cap, uint32_t *count);

/* Bodies the segment p0->p1 touches, in order of entry fraction t, then index. As
 * mbp_query_box(). Box and sphere bodies are tested exactly (a sphere's t: fixed point, the
 * exact fraction rounded down to a raw unit; float, before it by float's rounding, which a
 * grazing segment magnifies); shape and fast bodies by their box (the exact test is yours). */
mbp_status mbp_raycast(const mbp_world *w, const mbp_scalar p0[MBP_DIM],
                       const mbp_scalar p1[MBP_DIM], uint16_t mask, mbp_hit *out, uint32_t cap,
                       uint32_t *count);

/* The first hit of mbp_raycast(), without a buffer. *found tells whether there is one. MBP_OK
 * or MBP_E_BADBOX/MBP_E_RANGE for bad end points. */
mbp_status mbp_raycast_first(const mbp_world *w, const mbp_scalar p0[MBP_DIM],
                             const mbp_scalar p1[MBP_DIM], uint16_t mask, mbp_hit *out,
                             bool *found);

/* ---- shapes and space-time bounds (mbp_shape.c, mbp_obb.c, mbp_kdop.c, mbp_capsule.c, mbp_rss.c,
 * mbp_sat.c, mbp_swept.c; shape and fast bodies: mbp_shape_body.c; docs/shapes.md) ---- */

/* MBP_OK; MBP_E_BADBOX for NaN, infinities, negative extents or radius, min > max, an empty
 * k-DOP, a rotation whose rows are not orthonormal within 2^-10; MBP_E_RANGE for a value out of
 * range; MBP_E_PARAM for an unknown kind or one not compiled in. */
mbp_status mbp_shape_check(const mbp_shape *s);

/* out = the smallest box holding the shape (s valid), clamped to the range. In fixed point it
 * is rounded outwards, so it always holds the shape. */
void mbp_shape_aabb(const mbp_shape *s, mbp_aabb *out);

/* True when the two shapes (valid) overlap; touching overlaps. Exact, except that in fixed point
 * the tests that go through a separating axis (rounded axes) may report shapes a hair apart as
 * touching; none misses an overlap (docs/shapes.md). Time: from tens of instructions (boxes,
 * spheres) to tens of thousands (a 3D k-DOP against an oriented box, sphere or capsule, which
 * needs its vertices): docs/shapes.md has the figure of each pair. */
bool mbp_shape_overlap(const mbp_shape *a, const mbp_shape *b);

#if MBP_DIM == 2
/* Fills o->rot for the rotation by the angle whose cosine and sine are c and s (c^2 + s^2 = 1
 * within 2^-10): the box's first axis is (c, s). */
static inline void mbp_obb_rot2(mbp_obb *o, mbp_unit c, mbp_unit s)
{
    o->rot[0][0] = c;
    o->rot[0][1] = s;
    o->rot[1][0] = -s;
    o->rot[1][1] = c;
}
#endif

/* Shrinks each bound of k to the extent of the k-DOP the bounds describe together (their
 * intersection), which the tests need to be exact; mbp_add_shape() and mbp_move_shape() do it.
 * MBP_OK, or MBP_E_BADBOX when the k-DOP is empty (k unchanged), or as mbp_shape_check(). */
mbp_status mbp_kdop_tighten(mbp_kdop *k);

/* out = the tight k-DOP of the n >= 1 points p[0..n-1]. MBP_OK; MBP_E_PARAM for n == 0;
 * MBP_E_BADBOX or MBP_E_RANGE for a bad point or a diagonal bound out of range. */
mbp_status mbp_kdop_from_points(const mbp_scalar (*p)[MBP_DIM], uint32_t n, mbp_kdop *out);

/* Adds a body of any shape (a box or a sphere as mbp_add_box() and mbp_add_sphere()). Its box for
 * the broad phase is mbp_shape_aabb(); pairs are reported only where the shapes overlap (unless
 * params.aabb_only). A k-DOP is stored tightened. Returns as mbp_add_box() (and
 * mbp_shape_check()), and MBP_E_FULL also when an oriented box, k-DOP, capsule or RSS finds the
 * shape pool (MBP_MAX_SHAPES) full. */
mbp_status mbp_add_shape(mbp_world *w, const mbp_shape *s, uint32_t user, mbp_body *out);

/* Sets a body's volume to this shape, of any kind. As mbp_move_box(), and MBP_E_FULL when the
 * shape pool is full (the body keeps its old volume). */
mbp_status mbp_move_shape(mbp_world *w, mbp_body h, const mbp_shape *s);

/* Fast bodies. While a body is fast, each move makes its broad-phase box the union of its box at
 * the last update and every box it has been moved to since: the space-time bound of its motion
 * over the step, so a bullet that crosses a thin wall within one step still pairs with it. A
 * pair with a fast body means "may have touched during the step": the other body's shape is
 * tested against the fast body's bound (a box). Move a fast body every step, even where it
 * stands: a step without a move keeps the last bound. Turning it off makes its box its volume's
 * again; both ways count as a move (its pairs are tested again at the next update). MBP_OK,
 * MBP_E_STALE, MBP_E_FULL (a fast box body keeps its own box in the shape pool), MBP_E_NOROOM
 * (backend storage full; nothing changes). Needs MBP_WITH_FAST. */
mbp_status mbp_set_fast(mbp_world *w, mbp_body h, bool fast);

/* Space-time bound of a box moving with velocity v (units per time unit) for dt >= 0 time units,
 * under any acceleration with |a[k]| <= amax[k] on each axis (amax NULL: none, straight motion):
 * the box of every position x0 + v t + a t^2 / 2, 0 <= t <= dt, exact for the extremes (constant
 * +-amax). Conservative: rounded outwards in fixed point, widened by a few float ulps in float;
 * clamped to the range. The bound from a start and an end box is mbp_aabb_union(). MBP_OK,
 * MBP_E_PARAM for dt < 0 or amax[k] < 0, MBP_E_BADBOX/MBP_E_RANGE for bad numbers. */
mbp_status mbp_sweep_motion(const mbp_aabb *box, const mbp_scalar v[MBP_DIM],
                            const mbp_scalar *amax, mbp_scalar dt, mbp_aabb *out);

/* The name of a status, for logs ("MBP_E_FULL"). */
const char *mbp_status_name(mbp_status s);

/* The name of a backend, for logs and tables: "brute", "sweep", "sap", "grid", "hash", "hgrid",
 * "tree"; "?" for any other value. */
const char *mbp_backend_name(mbp_backend b);

/* The symbol behind mbp_init(): do not call it directly. */
#define MBP_CAT_(a, b, c) a##b##c
#define MBP_CAT(a, b, c) MBP_CAT_(a, b, c)
#if MBP_SCALAR == MBP_FIXED
#define MBP_INIT_SYMBOL MBP_CAT(mbp_init_, MBP_DIM, d_fixed)
#else
#define MBP_INIT_SYMBOL MBP_CAT(mbp_init_, MBP_DIM, d_float)
#endif
mbp_status MBP_INIT_SYMBOL(mbp_world *w, const mbp_params *p, uint32_t world_size,
                           unsigned long signature);

#ifdef __cplusplus
}
#endif

#endif /* MBP_H */
