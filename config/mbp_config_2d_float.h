/* SPDX-License-Identifier: MIT */
/* mbp_config_2d_float.h: the 2D float configuration of the test matrix (host and 4 MB QEMU targets).
 * Every backend that exists is compiled in (lib/mbp_config.h defaults). */
#define MBP_DIM 2
#define MBP_SCALAR MBP_FLOAT
#define MBP_MAX_BODIES 256
#define MBP_MAX_PAIRS 2048
/* No room reserved for events (the default), so that the per-pair user slots run with events
 * that share the pair set's free entries (3d_fixed too; the other configurations reserve
 * MBP_MAX_PAIRS). */
/* Sphere bodies, the shapes and fast bodies (off by default) are part of the test matrix. */
#define MBP_WITH_SPHERES 1
#define MBP_WITH_OBB 1
#define MBP_WITH_KDOP 1
#define MBP_WITH_CAPSULE 1
#define MBP_WITH_RSS 1
#define MBP_WITH_FAST 1
/* A per-pair user slot (mbp_pair_users()): on in this config so that tests/test_pair_user.c runs. */
#define MBP_PAIR_USER 1
