/* mbp_config_3d_float_sapq.h: the 3D float configuration with 16-bit quantized SAP endpoints
 * (MBP_SAP_QUANTIZED), so that the test matrix runs that option too. */
#include "mbp_config_3d_float.h"
#define MBP_SAP_QUANTIZED 1
