/* SPDX-License-Identifier: MIT */
/* mbp_config_cov_small.h: make coverage only (mk/coverage.mk). A small 2D fixed-point world
 * with options no configuration of the test matrix combines, for code that runs only under them:
 *   - a few entries reserved for events, fewer than pairs, so that a crowded pair set overflows
 *     its events (MBP_E_EVENTS_FULL cannot happen to a frame whose pairs fit while
 *     MBP_MAX_EVENTS >= MBP_MAX_PAIRS);
 *   - no sphere bodies (MBP_WITH_SPHERES 0, the default) and no shapes or fast bodies;
 *   - 24 fraction bits (coordinates within +-64 units), with quantized SAP, whose default
 *     quantization box (+-1024 units) is then clamped to the range.
 * Only tests/test_cover_*.c run in it: the other test files assume larger worlds. */
#define MBP_DIM 2
#define MBP_SCALAR MBP_FIXED
#define MBP_FIXED_FRAC_BITS 24
#define MBP_MAX_BODIES 16
#define MBP_MAX_PAIRS 32
#define MBP_MAX_EVENTS 8
#define MBP_WITH_SPHERES 0
#define MBP_SAP_QUANTIZED 1
