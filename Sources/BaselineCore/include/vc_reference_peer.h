#ifndef VC_REFERENCE_PEER_H
#define VC_REFERENCE_PEER_H
/* The reference pipeline of ../shared/real/README.md, as a yardstick for the real-photo
 * benchmark (`arcloud bench real`): what a straightforward OpenCV script does with posed
 * photos. Its own map: features on every map photo (cv::SIFT or cv::ORB), each photo
 * matched with its nearest photos (by camera centre; Lowe ratio, epipolar and
 * reprojection checks), points triangulated from the known poses and kept with every
 * observation's descriptor. A query is matched against every map descriptor (ratio
 * test against the best descriptor of another point) and solved with cv::solvePnPRansac
 * + cv::solvePnPRefineLM. Not arcloud's localizer: ORB stays the product's feature. */
#include <stdint.h>
#include "vc_common.h"
#include "vc_peer.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct vc_reference_peer vc_reference_peer;

typedef enum vc_reference_feature {
    VC_REFERENCE_SIFT = 0,  /* cv::SIFT, L2 distances */
    VC_REFERENCE_ORB = 1    /* cv::ORB, Hamming distances */
} vc_reference_feature;

typedef struct vc_reference_params {
    vc_reference_feature feature;
    int32_t features;            /* features per image */
    int32_t neighbours;          /* map photos each map photo is paired with */
    double ratio;                /* Lowe ratio */
    double ransac_threshold_px;
    int32_t max_iterations;
    int32_t min_inliers;         /* accept when inliers >= this */
} vc_reference_params;

/* A posed photo: gray pixels (width*height bytes, row-major, borrowed for the call),
 * pinhole K = (fx, fy, cx, cy), OpenCV distortion (k1, k2, p1, p2), and for map photos
 * the world->camera pose R_cw (row-major), t_cw. */
typedef struct vc_reference_image {
    const uint8_t *pixels;
    int32_t width, height;
    double K[4];
    double distortion[4];
    double R_cw[9];
    double t_cw[3];
} vc_reference_image;

/* Builds the peer's map from n posed map photos. Writes the number of map points to
 * *points_out. Returns NULL on bad arguments or an internal error. Free with
 * vc_reference_peer_destroy. */
vc_reference_peer *vc_reference_peer_create(const vc_reference_image *map_images, int32_t n,
                                            vc_reference_params params, int32_t *points_out);
void vc_reference_peer_destroy(vc_reference_peer *peer);

/* Localizes one query photo (its pose fields are ignored). Writes *out (match_ms covers
 * feature extraction and matching). Not thread-safe per peer. */
vc_status vc_reference_peer_localize(vc_reference_peer *peer, const vc_reference_image *query,
                                     vc_peer_result *out);

#ifdef __cplusplus
}
#endif
#endif
