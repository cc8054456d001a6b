/* mbp_config_2d_fixed_sapq.h: the 2D fixed configuration with 16-bit quantized SAP endpoints
 * (MBP_SAP_QUANTIZED), so that the test matrix runs that option too. */
#include "mbp_config_2d_fixed.h"
#define MBP_SAP_QUANTIZED 1
