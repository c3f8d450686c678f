#ifndef VC_COMMON_H
#define VC_COMMON_H
/* arcloud VisionCore: flat C ABI over OpenCV + Eigen. No C++ exception crosses it. */
#ifdef __cplusplus
extern "C" {
#endif

/* Status codes every VisionCore call returns. */
typedef enum vc_status {
    VC_OK = 0,
    VC_ERR_INVALID_ARGUMENT = 1,
    VC_ERR_DECODE = 2,
    VC_ERR_TOO_LARGE = 3,
    VC_ERR_NO_SOLUTION = 4,
    VC_ERR_OUT_OF_MEMORY = 5,
    VC_ERR_INTERNAL = 6
} vc_status;

/* Version string of the linked OpenCV (static storage; do not free). */
const char *vc_opencv_version(void);

#ifdef __cplusplus
}
#endif
#endif
