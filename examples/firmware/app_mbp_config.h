/* SPDX-License-Identifier: MIT */
/* app_mbp_config.h: the firmware's mbp options (a copy of config/mbp_config_template.h with what
 * it changes). Both builds pass it the same way: the make build with MBP_CONFIG_FILE and
 * MBP_CONFIG_DIR before including lib/mbp.mk, the CMake build with the variables of the same
 * names before add_subdirectory(). */
#ifndef APP_MBP_CONFIG_H
#define APP_MBP_CONFIG_H

#define MBP_DIM 2
#define MBP_SCALAR MBP_FLOAT /* the Cortex-M4F has a single-precision FPU */

/* Seven bodies in the scene; one spare. */
#define MBP_MAX_BODIES 8
/* SAP and the tree keep candidate pairs in the pair set too (README.md, Limits): room for all
 * 28 pairs of 8 bodies, so no frame can lose one. */
#define MBP_MAX_PAIRS 28

/* The ball and the round bumper are sphere bodies (off by default: 12 bytes a body). */
#define MBP_WITH_SPHERES 1

/* The three backends main.c runs; the others cost no flash or RAM. */
#define MBP_WITH_BRUTE 0
#define MBP_WITH_SWEEP 0
#define MBP_WITH_SAP 1
#define MBP_WITH_GRID 1
#define MBP_WITH_HASH 0
#define MBP_WITH_HGRID 0
#define MBP_WITH_TREE 1

#endif /* APP_MBP_CONFIG_H */
