/* mbp_config_3d_float.h: the 3D float configuration of the test matrix (host and 4 MB QEMU targets).
 * Every backend that exists is compiled in (lib/mbp_config.h defaults). */
#define MBP_DIM 3
#define MBP_SCALAR MBP_FLOAT
#define MBP_MAX_BODIES 256
#define MBP_MAX_PAIRS 2048
