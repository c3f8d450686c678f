// First-order covariance of an absolute pose from its inlier correspondences: the inverse of
// the Gauss–Newton information matrix J^T Σ^-1 J at the pose (Hartley & Zisserman, 5.2.3;
// as PoseLib and COLMAP estimate pose uncertainty). It says how well the inliers pin the
// pose down: a dozen matches spread over the image fix it to a fraction of a degree, the same
// dozen on one small patch leave rotation and translation trading against each other.
#pragma once
#include "pose_refine_lm.hpp"

namespace vc {

struct PoseCovariance {
    // Covariance of (ω, δ) in the left-perturbation X_cam = exp(ω) R X + t + δ, in radians and
    // world units, for a keypoint noise of one pixel at σ = 1 (scale it by σ₀²).
    Eigen::Matrix<double, 6, 6> pose;
    // Covariance of the camera centre c = −Rᵀt, world units².
    Eigen::Matrix3d centre;
    // Square roots of the largest eigenvalues: the worst direction's standard deviation.
    double rotation_sigma = 0, centre_sigma = 0;
    // False when the inliers do not determine the pose (fewer than three, or all on a line
    // through the centre): the sigmas are then infinite.
    bool determined = false;
};

// Covariance from the correspondences `subset` of `p` (all when subset is null), each
// weighted by p.weight(i) (1/σᵢ), plus the gravity prior when p.gravity_weight > 0. Points
// behind the camera are skipped. Noise: `point_sigma_px`, when given, adds each world point's
// own uncertainty projected into the image (pixels, per correspondence) to its keypoint noise.
PoseCovariance pose_covariance(const PoseProblem &p, const CameraPose &pose, const int *subset = nullptr,
                               int subset_n = 0, const double *point_sigma_px = nullptr);

}  // namespace vc
