// First-order covariance of an absolute pose from its inlier correspondences, with the
// noise the inliers actually show (Hartley & Zisserman 5.2.3, Förstner & Wrobel 4.2):
//
// - each correspondence's residual covariance is its keypoint noise (per pyramid level) plus
//   its map point's own triangulation covariance projected into the image (a 2×2 matrix:
//   a point whose depth is poorly known is uncertain along one image direction only);
// - the information J^T C^-1 J is inverted and scaled by the variance factor the residuals
//   themselves give (χ² / degrees of freedom, never below 1): inliers that scatter 2 px where
//   1 px was assumed make the pose twice as uncertain;
// - a delete-a-group jackknife over image regions re-solves the pose without each region.
//   Errors that are correlated within a region (a facade matched one window along, a patch of
//   map points triangulated at the same wrong depth) leave the formal covariance small but
//   move the pose when their region is left out; the jackknife measures that spread.
//
// Each estimate gives bounds on the error of the camera centre and of the rotation that hold
// together in 95 % of answers: the quantile of the error's length under the formal
// covariance, and under the jackknife's widened for its degrees of freedom (a variance
// measured from G regions is itself uncertain: F instead of χ²). The larger bound is the
// pose's claimed accuracy.
#pragma once
#include "pose_refine_lm.hpp"
#include <limits>

namespace vc {

struct PoseCovariance {
    // The pose the bounds describe: the weighted least-squares pose under this noise model
    // (Gauss–Newton from the given pose) when the jackknife ran, else the given pose.
    CameraPose refined;
    // Covariance of (ω, δ) in the left-perturbation X_cam = exp(ω) R X + t + δ, in radians and
    // world units, scaled by the residuals' variance factor.
    Eigen::Matrix<double, 6, 6> pose;
    // Covariance of the camera centre c = −Rᵀt, world units² (of `pose`).
    Eigen::Matrix3d centre;
    // Square roots of the largest eigenvalues: the worst direction's standard deviation, the
    // larger of the formal (scaled) and the jackknife estimate.
    double rotation_sigma = 0, centre_sigma = 0;
    // √(χ²/dof) of the inliers under their noise model, at least 1.
    double residual_scale = 1;
    // Regions the jackknife left out in turn (0: too few regions to run it), and its own
    // worst-direction deviations (0 when it did not run).
    int jackknife_groups = 0;
    double jackknife_rotation_sigma = 0, jackknife_centre_sigma = 0;
    // Bounds on the rotation error (radians) and on the centre's (world units) that hold
    // together with probability 95 % (each at 97.5 %).
    double rotation_bound95 = 0, centre_bound95 = 0;
    // False when the inliers do not determine the pose (fewer than three, or all on a line
    // through the centre): the sigmas are then infinite.
    bool determined = false;
};

// Covariance of `pose` from every correspondence of `p`, each with keypoint noise 1/p.weight(i)
// (level-0 pixels), plus the gravity prior when p.gravity_weight > 0. Points behind the
// camera are skipped.
// - point_cov: null, or 6 numbers per correspondence (xx, xy, xz, yy, yz, zz: the world
//   point's covariance, world units²).
// - groups: null, or a region id per correspondence (≥ 0; negative: in no region) for the
//   jackknife; it runs when at least 4 regions hold 2 or more correspondences each.
// - intrinsics_sigma: null, or the standard deviations of fx, fy, cx, cy (pixels): how well
//   the camera is calibrated. Their effect on the pose adds to both estimates.
PoseCovariance pose_covariance(const PoseProblem &p, const CameraPose &pose, const double *point_cov = nullptr,
                               const int32_t *groups = nullptr, const double *intrinsics_sigma = nullptr);

// The bounds are claimed together: the centre's and the rotation's each at 97.5 %, so that
// both hold in at least 95 % of answers (Bonferroni). Each is the quantile of the error's
// length under its covariance (`norm_bound`), widened for the jackknife's few degrees of
// freedom.
constexpr double kBoundProbability = 0.975;
// The degrees of freedom of a covariance taken as known (the formal one).
constexpr double kKnown = std::numeric_limits<double>::infinity();

}  // namespace vc
