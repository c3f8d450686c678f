#ifndef VC_SIFT_H
#define VC_SIFT_H
/* SIFT features with binary descriptors: OpenCV's SIFT keypoints (difference-of-Gaussian
 * extrema, sub-pixel and sub-scale, gradient orientation) whose 128-float descriptors are
 * binarized to 256 bits (vc_sift_binarize), so that a SIFT map is matched, indexed and
 * stored exactly as an ORB map is: Hamming distance on 32 bytes. */
#include <stddef.h>
#include <stdint.h>
#include "vc_common.h"
#include "vc_features.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Images of more pixels are reduced to this many (area averaging) before SIFT runs, and
 * their keypoints mapped back: SIFT's scale space starts at twice the image size, and its
 * peak memory grows with it (about 250 bytes per pixel: 80 MB for 640x480, 500 MB at this
 * bound). 1920x1080 and smaller are described at their own resolution. */
#define VC_SIFT_MAX_PIXELS 2100000

typedef struct vc_sift_params {
    int32_t n_features;   /* strongest kept, 1..100000 */
    /* The pyramid a keypoint's scale is expressed in, as an ORB keypoint's is:
     * octave = round(log(size / 3.2) / log(scale_factor)) clamped to 0..n_levels-1, so
     * SIFT's finest keypoints (σ 1.6) sit at level 0 and per-level noise and scale
     * checks read SIFT and ORB keypoints alike. */
    float scale_factor;   /* (1, 4) */
    int32_t n_levels;     /* 1..32 */
} vc_sift_params;

/* Opaque extractor (one cv::SIFT). One extractor must not be used by two threads at the
 * same time; separate extractors are independent. */
typedef struct vc_sift_extractor vc_sift_extractor;

/* Creates an extractor (*out owned by the caller; release with vc_sift_destroy).
 * VC_ERR_INVALID_ARGUMENT for params out of range. */
vc_status vc_sift_create(const vc_sift_params *params, vc_sift_extractor **out);
/* Destroys an extractor made by vc_sift_create; NULL is ignored. */
void vc_sift_destroy(vc_sift_extractor *extractor);

/* As vc_orb_extract: up to min(capacity, n_features) keypoints (strongest first) into
 * kps[0..*count) and their binary descriptors into descriptors[0..*count*32), all buffers
 * caller-owned. size is SIFT's keypoint diameter, response its contrast. Deterministic. */
vc_status vc_sift_extract(vc_sift_extractor *extractor, const uint8_t *gray, int32_t width,
                          int32_t height, int32_t stride, vc_keypoint *kps,
                          uint8_t *descriptors, int32_t capacity, int32_t *count);

/* 256 bits from one 128-float SIFT descriptor (caller-owned, read only; out: 32 bytes):
 * bit j (j < 128) is set when element j exceeds the descriptor's median, bit 128 + j when
 * it exceeds its upper quartile. Thresholds taken from the descriptor itself make the code
 * invariant to its norm; the two levels keep which bins are strong, not only which are
 * above average. */
void vc_sift_binarize(const float *descriptor, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif
