/* mbp_config_m0.h: the Cortex-M0 (microbit, 16 KB RAM) configuration: 2D fixed point, small
 * capacities, no floating point anywhere. */
#define MBP_DIM 2
#define MBP_SCALAR MBP_FIXED
#define MBP_FIXED_FRAC_BITS 16
#define MBP_MAX_BODIES 40
#define MBP_MAX_PAIRS 160
