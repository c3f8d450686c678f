#ifndef VC_COMMON_H
#define VC_COMMON_H
/* arcloud VisionCore: flat C ABI over OpenCV + Eigen. No C++ exception crosses it.
 *
 * Conventions for every header in this directory:
 * - Every fallible call returns a vc_status; VC_OK is 0.
 * - Buffers are owned by the caller unless a comment says otherwise; VisionCore never
 *   keeps a pointer to a caller's buffer after the call returns.
 * - Matrices are row-major doubles; a pose "R_cw, t_cw" maps world (map) points into the
 *   camera frame: X_cam = R_cw * X_world + t_cw (OpenCV camera: x right, y down, z forward).
 */
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Status codes every VisionCore call returns. */
typedef enum vc_status {
    VC_OK = 0,
    VC_ERR_INVALID_ARGUMENT = 1,
    VC_ERR_DECODE = 2,            /* the bytes are a known format but do not decode */
    VC_ERR_TOO_LARGE = 3,         /* the image header claims more pixels than allowed */
    VC_ERR_NO_SOLUTION = 4,       /* a solver found no model (too few points, degenerate data) */
    VC_ERR_OUT_OF_MEMORY = 5,
    VC_ERR_INTERNAL = 6,          /* an unexpected C++ exception; see vc_last_error_message */
    VC_ERR_EMPTY_INPUT = 7,       /* zero bytes / zero points */
    VC_ERR_TRUNCATED = 8,         /* the data ends before the image does */
    VC_ERR_UNSUPPORTED_FORMAT = 9,/* not a JPEG or PNG */
    VC_ERR_BUFFER_TOO_SMALL = 10  /* a caller buffer is smaller than needed (size reported) */
} vc_status;

/* Pinhole camera for undistorted pixels. */
typedef struct vc_pinhole {
    double fx, fy, cx, cy;
} vc_pinhole;

/* Version string of the linked OpenCV (static storage; do not free). */
const char *vc_opencv_version(void);

/* Threads OpenCV may use inside one call (cv::setNumThreads; process-wide). 1 keeps each
 * call on its calling thread, for callers that already run one frame per core. */
void vc_set_opencv_threads(int32_t threads);
int32_t vc_opencv_threads(void);

/* Bytes the C heap has handed out and not taken back (glibc mallinfo2: arena chunks in use
 * plus chunks mapped on their own; a sanitizer's allocator's own count under one). Swift,
 * C and C++ allocate through it. */
int64_t vc_heap_bytes(void);

/* A human-readable detail for the last failing call on this thread (thread-local storage,
 * valid until the next VisionCore call on this thread; do not free). Empty when none. */
const char *vc_last_error_message(void);

#ifdef __cplusplus
}
#endif
#endif
