#include "vc_common.h"
#include <opencv2/core.hpp>

extern "C" const char *vc_opencv_version(void) { return CV_VERSION; }
