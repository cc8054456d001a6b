/* mbp_config.h: reads the user's configuration, fills in the defaults, rejects bad combinations.
 *
 * This is the one place where defaults live. config/mbp_config_template.h documents every option;
 * copy it, set what you need, and build with -DMBP_CONFIG_FILE='"my_config.h"' (or set options
 * with plain -D flags). The library and the application must be built with the same options:
 * mbp_init() refuses a world declared under another configuration (see mbp.h).
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
#if MBP_DIM != 2 && MBP_DIM != 3
#error "MBP_DIM must be 2 or 3: set it in your MBP_CONFIG_FILE"
#endif

/* Coordinates: MBP_FLOAT (IEEE single) or MBP_FIXED (signed 32-bit, MBP_FIXED_FRAC_BITS
 * fraction bits; no floating point anywhere in the library). */
#ifndef MBP_SCALAR
#define MBP_SCALAR MBP_FLOAT
#endif
#if MBP_SCALAR != MBP_FLOAT && MBP_SCALAR != MBP_FIXED
#error "MBP_SCALAR must be MBP_FLOAT or MBP_FIXED: set it in your MBP_CONFIG_FILE"
#endif

/* Fixed point only: fraction bits. The coordinate range is +-(2^30 - 1) raw units whatever this
 * is, so 16 gives +-16384.0 with steps of 1/65536; 8 gives +-4194304.0 with steps of 1/256. */
#ifndef MBP_FIXED_FRAC_BITS
#define MBP_FIXED_FRAC_BITS 16
#endif
#if MBP_FIXED_FRAC_BITS < 0 || MBP_FIXED_FRAC_BITS > 24
#error "MBP_FIXED_FRAC_BITS must be 0..24: set it in your MBP_CONFIG_FILE"
#endif

/* Capacity in bodies. Each body costs about 40 bytes (2D float) to 60 bytes (3D, spheres) in the
 * world itself, plus what the chosen backends keep per body (make size prints the figures). */
#ifndef MBP_MAX_BODIES
#define MBP_MAX_BODIES 128
#endif
#if MBP_MAX_BODIES < 1 || MBP_MAX_BODIES > 65534
#error "MBP_MAX_BODIES must be 1..65534: set it in your MBP_CONFIG_FILE"
#endif

/* Capacity of the pair set. Each pair costs 5 bytes plus 2 to 4 bytes of hash index per pair
 * (4 to 8 bytes of index per pair: the table is at least twice the capacity, a power of two).
 * Within one update the set holds the pairs of the previous frame and the pairs that begin in
 * this one; when it is full, mbp_update() returns MBP_E_PAIRS_FULL and counts the lost pairs. */
#ifndef MBP_MAX_PAIRS
#define MBP_MAX_PAIRS (2 * MBP_MAX_BODIES)
#endif
#if MBP_MAX_PAIRS < 1 || MBP_MAX_PAIRS > 1048576
#error "MBP_MAX_PAIRS must be 1..1048576: set it in your MBP_CONFIG_FILE"
#endif

/* Capacity of one update's begin/end events, both kinds together, 4 bytes each. A frame with
 * more events returns MBP_E_EVENTS_FULL and counts the lost events; the pair set stays exact. */
#ifndef MBP_MAX_EVENTS
#define MBP_MAX_EVENTS MBP_MAX_PAIRS
#endif
#if MBP_MAX_EVENTS < 1 || MBP_MAX_EVENTS > 2097152
#error "MBP_MAX_EVENTS must be 1..2097152: set it in your MBP_CONFIG_FILE"
#endif

/* Sphere (circle) bodies: DIM+1 scalars per body. 0 removes them and their RAM. */
#ifndef MBP_WITH_SPHERES
#define MBP_WITH_SPHERES 1
#endif

/* Backends compiled in; a world picks one of them at mbp_init(). Each costs flash, and the
 * world's RAM is that of the largest one compiled in (their state shares one union). */
#ifndef MBP_WITH_BRUTE
#define MBP_WITH_BRUTE 1
#endif
#ifndef MBP_WITH_SWEEP
#define MBP_WITH_SWEEP 0
#endif
#ifndef MBP_WITH_SAP
#define MBP_WITH_SAP 0
#endif
#ifndef MBP_WITH_GRID
#define MBP_WITH_GRID 0
#endif
#ifndef MBP_WITH_HASH
#define MBP_WITH_HASH 0
#endif
#ifndef MBP_WITH_HGRID
#define MBP_WITH_HGRID 0
#endif
#ifndef MBP_WITH_TREE
#define MBP_WITH_TREE 0
#endif
#if !(MBP_WITH_BRUTE || MBP_WITH_SWEEP || MBP_WITH_SAP || MBP_WITH_GRID || MBP_WITH_HASH || \
      MBP_WITH_HGRID || MBP_WITH_TREE)
#error "no backend compiled in: set at least one MBP_WITH_<backend> to 1"
#endif

/* Programmer errors (NULL world, uninitialised world) call mbp_port_assert_failed().
 * 0 removes the checks and their flash; such errors are then undefined behaviour. */
#ifndef MBP_ASSERT
#define MBP_ASSERT 1
#endif

/* Derived: the pair hash table has 2^MBP_PAIR_HASH_BITS slots, at least twice MBP_MAX_PAIRS. */
#if 2 * MBP_MAX_PAIRS <= 16
#define MBP_PAIR_HASH_BITS 4
#elif 2 * MBP_MAX_PAIRS <= 32
#define MBP_PAIR_HASH_BITS 5
#elif 2 * MBP_MAX_PAIRS <= 64
#define MBP_PAIR_HASH_BITS 6
#elif 2 * MBP_MAX_PAIRS <= 128
#define MBP_PAIR_HASH_BITS 7
#elif 2 * MBP_MAX_PAIRS <= 256
#define MBP_PAIR_HASH_BITS 8
#elif 2 * MBP_MAX_PAIRS <= 512
#define MBP_PAIR_HASH_BITS 9
#elif 2 * MBP_MAX_PAIRS <= 1024
#define MBP_PAIR_HASH_BITS 10
#elif 2 * MBP_MAX_PAIRS <= 2048
#define MBP_PAIR_HASH_BITS 11
#elif 2 * MBP_MAX_PAIRS <= 4096
#define MBP_PAIR_HASH_BITS 12
#elif 2 * MBP_MAX_PAIRS <= 8192
#define MBP_PAIR_HASH_BITS 13
#elif 2 * MBP_MAX_PAIRS <= 16384
#define MBP_PAIR_HASH_BITS 14
#elif 2 * MBP_MAX_PAIRS <= 32768
#define MBP_PAIR_HASH_BITS 15
#elif 2 * MBP_MAX_PAIRS <= 65536
#define MBP_PAIR_HASH_BITS 16
#elif 2 * MBP_MAX_PAIRS <= 131072
#define MBP_PAIR_HASH_BITS 17
#elif 2 * MBP_MAX_PAIRS <= 262144
#define MBP_PAIR_HASH_BITS 18
#elif 2 * MBP_MAX_PAIRS <= 524288
#define MBP_PAIR_HASH_BITS 19
#elif 2 * MBP_MAX_PAIRS <= 1048576
#define MBP_PAIR_HASH_BITS 20
#else
#define MBP_PAIR_HASH_BITS 21
#endif
#define MBP_PAIR_HASH_SIZE (1L << MBP_PAIR_HASH_BITS)

/* A number that changes with every option that changes the world's layout or meaning; mbp_init()
 * compares the application's with the library's. */
#define MBP_CONFIG_SIGNATURE                                                                       \
    ((unsigned long)MBP_MAX_BODIES * 2654435761UL ^ (unsigned long)MBP_MAX_PAIRS * 40503UL ^         \
     (unsigned long)MBP_MAX_EVENTS * 9973UL ^ (unsigned long)MBP_FIXED_FRAC_BITS << 24 ^             \
     (unsigned long)MBP_WITH_SPHERES << 23 ^                                                       \
     (unsigned long)(MBP_WITH_BRUTE | MBP_WITH_SWEEP << 1 | MBP_WITH_SAP << 2 | MBP_WITH_GRID << 3 | \
                     MBP_WITH_HASH << 4 | MBP_WITH_HGRID << 5 | MBP_WITH_TREE << 6) << 16)

#endif /* MBP_CONFIG_H */
