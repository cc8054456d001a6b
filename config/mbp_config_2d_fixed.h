/* SPDX-License-Identifier: MIT */
/* mbp_config_2d_fixed.h: the 2D fixed configuration of the test matrix (host and 4 MB QEMU targets).
 * Every backend that exists is compiled in (lib/mbp_config.h defaults). */
#define MBP_DIM 2
#define MBP_SCALAR MBP_FIXED
#define MBP_MAX_BODIES 256
#define MBP_MAX_PAIRS 2048
/* Room for every event of any frame whose pairs fit, so that the differential suite's dense
 * scenes check every event here; 2d_float and 3d_fixed keep the default (events only in the
 * entries the pairs leave free) and check the part they hold when a frame loses some. */
#define MBP_MAX_EVENTS MBP_MAX_PAIRS
/* Sphere bodies, the shapes and fast bodies (off by default) are part of the test matrix. */
#define MBP_WITH_SPHERES 1
#define MBP_WITH_OBB 1
#define MBP_WITH_KDOP 1
#define MBP_WITH_CAPSULE 1
#define MBP_WITH_RSS 1
#define MBP_WITH_FAST 1
