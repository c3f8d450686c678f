#ifndef VC_POSE_H
#define VC_POSE_H
/* Absolute camera pose from 2D–3D correspondences: Lambda Twist P3P inside LO-RANSAC
 * (adaptive iteration count, MSAC scoring, LM local optimisation), then Levenberg–Marquardt
 * on SE(3) with a robust loss. All Eigen. Pixels are undistorted (see
 * vc_undistort_points); world points are in map units. */
#include <stdint.h>
#include "vc_common.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef enum vc_loss {
    VC_LOSS_TRIVIAL = 0, /* plain least squares */
    VC_LOSS_HUBER = 1,
    VC_LOSS_CAUCHY = 2
} vc_loss;

typedef struct vc_ransac_options {
    double threshold_px;    /* inlier threshold on reprojection error, pixels (e.g. 4) */
    double confidence;      /* stop once this sure to have drawn an all-inlier sample (0.999) */
    int32_t max_iterations; /* hard cap on samples (e.g. 10000) */
    int32_t min_iterations; /* draw at least this many (0) */
    uint64_t seed;          /* random sampling seed: same inputs + seed → same result */
    int32_t local_optimization; /* nonzero: LM on the inliers of every new best model */
    int32_t final_refinement;   /* nonzero: robust LM on the final inliers */
    int32_t loss;           /* vc_loss for the final refinement */
    double loss_scale_px;   /* scale of that loss in pixels (e.g. the threshold) */
} vc_ransac_options;

/* Threshold 4 px, confidence 0.999, 10000 iterations, LO on, Huber refinement at 4 px
 * (least squares on the inliers, bounded influence near the threshold: on Gaussian noise
 * this measured as accurate as plain least squares, and a tighter Cauchy was less so). */
vc_ransac_options vc_ransac_default_options(void);

typedef struct vc_pose_result {
    double R_cw[9];      /* world → camera rotation, row-major */
    double t_cw[3];      /* X_cam = R_cw X_world + t_cw */
    double R_wc[9];      /* camera → world (T_map_camera) rotation, row-major */
    double t_wc[3];      /* camera centre in the world */
    int32_t num_inliers;
    int32_t iterations;  /* RANSAC samples drawn */
    int32_t refinements; /* local optimisations run */
    double rms_px;       /* RMS reprojection error over the final inliers */
} vc_pose_result;

/* Robust absolute pose. points2d: n undistorted pixels (x,y interleaved), points3d: n world
 * points (x,y,z interleaved), both caller-owned and read only. inlier_mask: NULL or n bytes
 * (caller-owned) set to 1 for final inliers. Errors: VC_ERR_EMPTY_INPUT for n == 0;
 * VC_ERR_NO_SOLUTION when n < 4 or no pose has at least 4 inliers (a P3P pose always fits
 * its own 3 sample points, so 3 inliers are no evidence); VC_ERR_INVALID_ARGUMENT for bad
 * options. */
vc_status vc_pose_estimate(const vc_pinhole *camera, const double *points2d,
                           const double *points3d, int32_t n, const vc_ransac_options *options,
                           vc_pose_result *result, uint8_t *inlier_mask);

/* As vc_pose_estimate, with sigmas: NULL, or n positive position-noise scales (caller-owned,
 * read only), e.g. scale_factor^octave of each keypoint. Residuals are divided by their
 * sigma, so thresholds, losses and rms_px stay in level-0 pixels: a coarse-level keypoint
 * may sit farther from its projection and weighs less in the refinement. */
vc_status vc_pose_estimate_weighted(const vc_pinhole *camera, const double *points2d,
                                    const double *points3d, const double *sigmas, int32_t n,
                                    const vc_ransac_options *options, vc_pose_result *result,
                                    uint8_t *inlier_mask);

/* As vc_pose_estimate_weighted, for a camera whose gravity direction is known (a phone's
 * IMU): down_cam is world "down" (0, -1, 0 in the map frame, which has +y up) expressed in
 * camera coordinates, 3 doubles of any length > 0, caller-owned, read only. Hypotheses come
 * from the upright P2P solver: two-point samples, so far fewer samples find an all-inlier
 * one at low inlier ratios than with P3P (~1/w^2 against ~1/w^3). Local optimisation and
 * the final refinement are 6-DoF with gravity as a prior of standard deviation
 * gravity_sigma_deg (e.g. 0.5): a pose held by a handful of points keeps the measured
 * gravity, hundreds of points can correct it. VC_ERR_INVALID_ARGUMENT for NULL, zero or
 * non-finite gravity or a sigma <= 0; otherwise the errors of vc_pose_estimate. */
vc_status vc_pose_estimate_gravity(const vc_pinhole *camera, const double *points2d,
                                   const double *points3d, const double *sigmas, int32_t n,
                                   const double *down_cam, double gravity_sigma_deg,
                                   const vc_ransac_options *options, vc_pose_result *result,
                                   uint8_t *inlier_mask);

/* A region of pose space around a pose: rotations within max_rotation_deg of R_cw and camera
 * centres within max_centre_distance (world units) of −R_cwᵀ t_cw. */
typedef struct vc_pose_exclusion {
    double R_cw[9];              /* world → camera rotation, row-major */
    double t_cw[3];
    double max_rotation_deg;
    double max_centre_distance;
} vc_pose_exclusion;

/* The best pose *outside* `exclusion` (caller-owned, read only): as vc_pose_estimate_weighted
 * (down_cam NULL) or vc_pose_estimate_gravity (down_cam non-NULL), but every hypothesis is
 * locally optimised and dropped when it lies, before or after, within the region. Given the
 * region of an accepted pose, it finds the best other local optimum of the same matches: a
 * rival pose that explains much the same evidence (a planar target's mirror solution, a
 * repeated facade) means the evidence does not determine the pose. Errors as
 * vc_pose_estimate; VC_ERR_NO_SOLUTION when no pose outside the region has 4 inliers. */
vc_status vc_pose_estimate_rival(const vc_pinhole *camera, const double *points2d, const double *points3d,
                                 const double *sigmas, int32_t n, const double *down_cam,
                                 double gravity_sigma_deg, const vc_pose_exclusion *exclusion,
                                 const vc_ransac_options *options, vc_pose_result *result,
                                 uint8_t *inlier_mask);

/* The minimal solver alone. bearings: 3 camera rays (9 doubles, any length > 0); points3d:
 * 3 world points. Writes up to 4 solutions to R_cw (4×9) and t_cw (4×3), caller-owned, and
 * their number to *count (0 for degenerate input: still VC_OK). */
vc_status vc_pose_p3p(const double *bearings, const double *points3d, double *R_cw,
                      double *t_cw, int32_t *count);

/* The upright P2P minimal solver alone. bearings: 2 camera rays (6 doubles, any length > 0);
 * points3d: 2 world points (6 doubles); down_cam: gravity in camera coordinates (3 doubles).
 * Writes up to 2 solutions to R_cw (2×9) and t_cw (2×3), caller-owned, and their number to
 * *count (0 for degenerate input: still VC_OK). All inputs caller-owned, read only. */
vc_status vc_pose_p2p_upright(const double *bearings, const double *points3d,
                              const double *down_cam, double *R_cw, double *t_cw,
                              int32_t *count);

typedef struct vc_pose_uncertainty {
    double covariance[36];        /* of (ω, δ) in X_cam = exp(ω) R_cw X + t_cw + δ, row-major,
                                     radians and world units, scaled by residual_scale² */
    double centre_covariance[9];  /* of the camera centre −R_cwᵀ t_cw, world units², row-major */
    double rotation_sigma_rad;    /* standard deviation of the worst-determined rotation axis:
                                     the larger of the scaled formal and the jackknife estimate */
    double centre_sigma;          /* standard deviation of the centre along its worst direction
                                     (likewise) */
    double residual_scale;        /* √(χ²/dof) of the inliers under their noise model, ≥ 1 */
    double jackknife_rotation_sigma_rad; /* the jackknife's own estimates (0 when it did not run) */
    double jackknife_centre_sigma;
    double rotation_bound95_rad;  /* bound on the rotation error at 97.5 % (with the centre's,
                                     both hold in 95 %): the larger of the formal one (√χ²₃ σ)
                                     and the jackknife's (Hotelling's T² for its dof) */
    double centre_bound95;        /* the same for the camera centre, world units */
    double refined_R_cw[9];       /* the pose the bounds describe: the weighted least-squares  */
    double refined_t_cw[3];       /* pose under this noise model when the jackknife ran (a few
                                     Gauss–Newton steps from R_cw, t_cw), else R_cw, t_cw */
    int32_t jackknife_groups;     /* regions left out in turn; 0 when fewer than 4 had ≥ 2 points */
    int32_t determined;           /* 0 when the points do not fix the pose (fewer than 3, or
                                     degenerate): every other field is then +infinity */
} vc_pose_uncertainty;

/* Covariance of the pose (R_cw, t_cw) given n correspondences taken as inliers: the inverse
 * of the Gauss–Newton information matrix at the pose, with each residual's covariance the
 * keypoint noise plus the world point's own covariance projected into the image, scaled by
 * the residuals' variance factor; and a delete-a-group jackknife over `groups`, which
 * catches errors correlated within a group that the formal covariance cannot see.
 * points2d (undistorted pixels), points3d: as vc_pose_estimate. sigmas: NULL or n
 * keypoint-noise standard deviations, level-0 pixels. point_covariances: NULL or 6n numbers,
 * each world point's covariance (xx, xy, xz, yy, yz, zz; world units²). groups: NULL or n
 * region ids (negative: no region). down_cam: NULL, or gravity in camera coordinates with
 * its standard deviation gravity_sigma_deg, added as the prior the gravity solver uses.
 * intrinsics_sigma: NULL or 4 standard deviations (pixels) of fx, fy, cx, cy: the camera's
 * calibration accuracy, whose first-order effect on the pose adds to the covariance.
 * All inputs caller-owned and read only; *out caller-owned. Points behind the camera are
 * ignored. VC_ERR_INVALID_ARGUMENT for NULL or non-finite input, or a point covariance
 * that is not positive semi-definite on its diagonal. */
vc_status vc_pose_covariance(const vc_pinhole *camera, const double *points2d, const double *points3d,
                             const double *sigmas, const double *point_covariances, const int32_t *groups,
                             int32_t n, const double *R_cw, const double *t_cw, const double *down_cam,
                             double gravity_sigma_deg, const double *intrinsics_sigma, vc_pose_uncertainty *out);

typedef struct vc_refine_options {
    int32_t max_iterations; /* e.g. 30 */
    int32_t loss;           /* vc_loss */
    double loss_scale_px;   /* e.g. 2 */
} vc_refine_options;

/* Levenberg–Marquardt refinement of (R_cw, t_cw), updated in place (caller-owned), on all
 * n correspondences. *rms_px (may be NULL) receives the final RMS reprojection error,
 * *iterations (may be NULL) the LM iterations run. */
vc_status vc_pose_refine(const vc_pinhole *camera, const double *points2d,
                         const double *points3d, int32_t n, const vc_refine_options *options,
                         double *R_cw, double *t_cw, double *rms_px, int32_t *iterations);

#ifdef __cplusplus
}
#endif
#endif
