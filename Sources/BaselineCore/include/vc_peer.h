#ifndef VC_PEER_H
#define VC_PEER_H
/* The OpenCV peer pipeline that `arcloud bench localize` measures arcloud's localizer
 * against: brute-force k-NN matching (cv::BFMatcher) against every map descriptor + ratio
 * test + cv::solvePnPRansac (AP3P) + cv::solvePnPRefineLM. Straightforward on purpose: it
 * is what a careful engineer writes with OpenCV alone. It takes the query's ORB features
 * from arcloud's extractor, because the map's descriptors come from it (cv::ORB uses
 * another sampling pattern, so its descriptors cannot match this map). */
#include <stdint.h>
#include "vc_common.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct vc_peer vc_peer;

typedef struct vc_peer_params {
    double ratio;              /* Lowe ratio test */
    double ransac_threshold_px;
    double confidence;
    int32_t max_iterations;
    int32_t min_inliers;       /* accept when inliers >= this */
} vc_peer_params;

typedef struct vc_peer_result {
    int32_t localized;         /* 1 when accepted */
    double R_cw[9];            /* world->camera rotation, row-major */
    double t_cw[3];
    int32_t matches;
    int32_t inliers;
    double match_ms, solve_ms;
} vc_peer_result;

/* Creates a peer over a map of n points. The peer copies the descriptors (n*32 bytes)
 * and the points (n*3 doubles); the caller keeps ownership of its buffers.
 * Returns NULL on bad arguments or allocation failure. Free with vc_peer_destroy. */
vc_peer *vc_peer_create(const uint8_t *descriptors, const double *points_xyz, int32_t n,
                        vc_peer_params params);
void vc_peer_destroy(vc_peer *peer);

/* Localizes n query features: keypoints_xy (n x,y floats, undistorted pixels) and
 * descriptors (n*32 bytes), both borrowed for the call, with pinhole intrinsics
 * K = (fx, fy, cx, cy). Writes *out. Not thread-safe per peer: one peer per thread. */
vc_status vc_peer_localize(vc_peer *peer, const float *keypoints_xy, const uint8_t *descriptors,
                           int32_t n, const double K[4], vc_peer_result *out);

#ifdef __cplusplus
}
#endif
#endif
