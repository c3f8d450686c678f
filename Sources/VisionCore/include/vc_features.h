#ifndef VC_FEATURES_H
#define VC_FEATURES_H
/* ORB features: FAST corners on a scale pyramid, spread evenly over each level with an
 * ORB-SLAM-style quadtree (cells without corners at the initial FAST threshold retry at the
 * minimum threshold), intensity-centroid orientation, 256-bit steered BRIEF descriptors.
 * Plus undistortion of pixel coordinates (OpenCV k1 k2 p1 p2 [k3] model). */
#include <stddef.h>
#include <stdint.h>
#include "vc_common.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Bytes per descriptor (256 bits). */
#define VC_DESCRIPTOR_BYTES 32

/* A keypoint in level-0 pixel coordinates. size: diameter of the descriptor patch in
 * level-0 pixels; angle: orientation in degrees [0, 360); response: FAST score;
 * octave: pyramid level the keypoint was found on. */
typedef struct vc_keypoint {
    float x, y;
    float size;
    float angle;
    float response;
    int32_t octave;
} vc_keypoint;

typedef struct vc_orb_params {
    int32_t n_features;         /* total over all levels, e.g. 1000 */
    float scale_factor;         /* between levels, e.g. 1.2 */
    int32_t n_levels;           /* e.g. 8 */
    int32_t ini_fast_threshold; /* e.g. 20 */
    int32_t min_fast_threshold; /* used in cells with no corner at the initial one, e.g. 7 */
    int32_t cell_size;          /* grid cell (level pixels) for the threshold fallback, e.g. 30 */
} vc_orb_params;

/* The defaults above (1000 features, 1.2, 8 levels, 20/7, 30 px cells). */
vc_orb_params vc_orb_default_params(void);

/* Opaque extractor; keeps its pyramid and scratch buffers between frames. One extractor
 * must not be used by two threads at the same time; separate extractors are independent. */
typedef struct vc_orb_extractor vc_orb_extractor;

/* Creates an extractor (*out owned by the caller; release with vc_orb_destroy).
 * VC_ERR_INVALID_ARGUMENT for params out of range (n_features 1..100000, scale 1..4
 * exclusive of 1, levels 1..32, thresholds 1..255 with min <= ini, cell 8..512). */
vc_status vc_orb_create(const vc_orb_params *params, vc_orb_extractor **out);
/* Destroys an extractor made by vc_orb_create; NULL is ignored. */
void vc_orb_destroy(vc_orb_extractor *extractor);

/* Extracts up to min(capacity, n_features) features from a gray image (caller-owned,
 * `stride` bytes per row, read only). Keypoints go to kps[0..*count), descriptors to
 * descriptors[0..*count*32) (both caller-owned, `capacity` entries). The result depends
 * only on the image and the parameters (deterministic). Images smaller than 32x32 give
 * zero features. */
vc_status vc_orb_extract(vc_orb_extractor *extractor, const uint8_t *gray, int32_t width,
                         int32_t height, int32_t stride, vc_keypoint *kps,
                         uint8_t *descriptors, int32_t capacity, int32_t *count);

/* Pinhole intrinsics with optional OpenCV distortion (n_distortion 0, 4 or 5). */
typedef struct vc_intrinsics {
    double fx, fy, cx, cy;
    double distortion[5]; /* k1 k2 p1 p2 k3 */
    int32_t n_distortion;
} vc_intrinsics;

/* Undistorts n pixel positions xy_in (interleaved x,y; caller-owned) into xy_out (may be the
 * same buffer): the pixel the point would have in an ideal pinhole camera with the same
 * fx fy cx cy. With no distortion this copies. */
vc_status vc_undistort_points(const vc_intrinsics *intrinsics, const double *xy_in,
                              double *xy_out, int32_t n);

#ifdef __cplusplus
}
#endif
#endif
