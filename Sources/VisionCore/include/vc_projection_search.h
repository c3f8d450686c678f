#ifndef VC_PROJECTION_SEARCH_H
#define VC_PROJECTION_SEARCH_H
/* Guided 2D–3D candidate search: project map points with a pose prior and, for every
 * keypoint, list the map points that land within a radius of it. The localizer feeds
 * these lists to vc_match_guided (tracking mode, and the guided pass of single-shot). */
#include <stdint.h>
#include "vc_common.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct vc_projection_search_options {
    double radius_px;          /* search radius around each keypoint, pixels */
    double min_depth;          /* ignore points closer than this in front of the camera */
    double max_depth;          /* and farther than this */
    int32_t max_per_keypoint;  /* keep at most this many candidates per keypoint: the nearest, nearest first */
    double min_view_cos;       /* with normals: skip points seen at more than acos(this) from
                                  their mean viewing direction (ORB does not survive it) */
} vc_projection_search_options;

/* Candidate lists in CSR layout.
 * camera: pinhole of undistorted pixels; R_cw (row-major 3x3), t_cw: world → camera prior.
 * points_xyz: n_points world points (x,y,z interleaved, doubles). keypoints_xy: n_keypoints
 * undistorted keypoint positions (x,y interleaved, floats). width, height: image size.
 * normals: NULL, or n_points unit viewing directions (x,y,z floats: from the cameras that
 * observed the point towards it).
 * subset: NULL to search all n_points, or n_subset distinct indices into points_xyz (each in
 * [0, n_points)) to search only those (a local map); candidates index points_xyz either way.
 * offsets: caller-owned, n_keypoints + 1 entries; candidates: caller-owned, capacity entries
 * (n_keypoints * max_per_keypoint always suffices). *count receives the entries written.
 * All inputs are borrowed for the call and only read. Thread-safe (no shared state). */
vc_status vc_projection_search(const vc_pinhole *camera, const double *R_cw, const double *t_cw,
                               const double *points_xyz, const float *normals, int32_t n_points,
                               const int32_t *subset, int32_t n_subset,
                               const float *keypoints_xy, int32_t n_keypoints,
                               int32_t width, int32_t height,
                               const vc_projection_search_options *options,
                               int32_t *offsets, int32_t *candidates, int32_t capacity,
                               int32_t *count);

#ifdef __cplusplus
}
#endif
#endif
