/* SPDX-License-Identifier: MIT */
/* mbp_config_2d_fixed_sapq.h: the 2D fixed configuration with 16-bit quantized SAP endpoints
 * (MBP_SAP_QUANTIZED), so that the test matrix runs that option too. */
#include "mbp_config_2d_fixed.h"
#define MBP_SAP_QUANTIZED 1
/* No sphere bodies (the default; 2d_fixed turns them on), so that the test matrix also runs the
 * library without them (3d_float_sapq keeps them). */
#undef MBP_WITH_SPHERES
#define MBP_WITH_SPHERES 0
/* The shapes and fast bodies (off by default) are part of the test matrix. */
#define MBP_WITH_OBB 1
#define MBP_WITH_KDOP 1
#define MBP_WITH_CAPSULE 1
#define MBP_WITH_RSS 1
#define MBP_WITH_FAST 1
/* No event lists (MBP_WITH_EVENTS 0), so that the matrix builds and runs that option: its tests
 * check the pairs and the statistics' begun and ended counts instead. */
#undef MBP_MAX_EVENTS
#define MBP_MAX_EVENTS 0
#define MBP_WITH_EVENTS 0
