#ifndef VC_BASELINE_H
#define VC_BASELINE_H
/* OpenCV reference pipelines, for benchmarks and cross-checks only: the pose solver as
 * OpenCV users would write it (solvePnPRansac with SOLVEPNP_AP3P, then solvePnPRefineLM on
 * the inliers), and raw cv::ORB. */
#include <stdint.h>
#include "vc_common.h"
#include "vc_pose.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct vc_baseline_pnp_options {
    double threshold_px;   /* same meaning as vc_ransac_options.threshold_px */
    double confidence;
    int32_t max_iterations;
    int32_t refine;        /* nonzero: solvePnPRefineLM on the RANSAC inliers */
} vc_baseline_pnp_options;

/* Same inputs and outputs as vc_pose_estimate (iterations/refinements are not reported by
 * OpenCV and stay 0). */
vc_status vc_baseline_pnp_ransac(const vc_pinhole *camera, const double *points2d,
                                 const double *points3d, int32_t n,
                                 const vc_baseline_pnp_options *options,
                                 vc_pose_result *result, uint8_t *inlier_mask);

/* Raw cv::ORB (cv::ORB::create(n_features)), created once, used per frame. */
typedef struct vc_baseline_orb vc_baseline_orb;
vc_status vc_baseline_orb_create(int32_t n_features, vc_baseline_orb **out);
void vc_baseline_orb_destroy(vc_baseline_orb *orb);
/* detectAndCompute on a gray image (caller-owned). *count receives the number of
 * keypoints; xy (NULL or 2*capacity floats, caller-owned) receives up to `capacity`
 * keypoint positions, x,y interleaved. */
vc_status vc_baseline_orb_detect(vc_baseline_orb *orb, const uint8_t *gray, int32_t width,
                                 int32_t height, int32_t stride, float *xy, int32_t capacity,
                                 int32_t *count);

#ifdef __cplusplus
}
#endif
#endif
