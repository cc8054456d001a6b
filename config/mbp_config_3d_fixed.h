/* SPDX-License-Identifier: MIT */
/* mbp_config_3d_fixed.h: the 3D fixed configuration of the test matrix (host and 4 MB QEMU targets).
 * Every backend that exists is compiled in (lib/mbp_config.h defaults). */
#define MBP_DIM 3
#define MBP_SCALAR MBP_FIXED
#define MBP_MAX_BODIES 256
#define MBP_MAX_PAIRS 2048
/* No room reserved for events (the default): a frame's events go into the entries its pairs
 * leave free, and the differential suite's dense 3D scenes crowd the set enough that some frames
 * lose events: it checks the part they hold (2d_float reserves none either; the others reserve
 * MBP_MAX_PAIRS). */
/* Sphere bodies, the shapes and fast bodies (off by default) are part of the test matrix. */
#define MBP_WITH_SPHERES 1
#define MBP_WITH_OBB 1
#define MBP_WITH_KDOP 1
#define MBP_WITH_CAPSULE 1
#define MBP_WITH_RSS 1
#define MBP_WITH_FAST 1
