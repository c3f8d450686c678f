// Levenberg–Marquardt on SE(3) for absolute pose: minimises Σ ρ(|reprojection error|²)
// in pixels over the given correspondences, with a left-multiplied rotation update
// R ← exp(ω) R, t ← t + δ.
#pragma once
#include "camera_pose.hpp"
#include "robust_loss.hpp"

namespace vc {

// Correspondences in normalized image coordinates (undistorted, z = 1) and world points,
// plus the focal lengths that turn normalized residuals into pixels.
struct PoseProblem {
    const Eigen::Vector2d *xn = nullptr;
    const Eigen::Vector3d *X = nullptr;
    int n = 0;
    double fx = 1, fy = 1;
    // Optional 1/σ per correspondence (σ: that keypoint's position noise relative to
    // pyramid level 0, e.g. scale^octave). Residuals are divided by σ, so thresholds and
    // losses stay in level-0 pixels. nullptr: all 1.
    const double *w = nullptr;
    double weight(int i) const { return w ? w[i] : 1.0; }
    // Optional gravity prior: the measured world up (0, 1, 0) in camera coordinates (unit),
    // and its weight, 1/σ in radians (σ: the IMU's gravity error). It adds the residual
    // gravity_weight · (R·(0, 1, 0) − up_cam), so one σ of tilt costs as much as one pixel:
    // a pose held by few points keeps the measured gravity, many points can overrule it.
    Eigen::Vector3d up_cam = Eigen::Vector3d::Zero();
    double gravity_weight = 0;

    // Squared weighted reprojection error (level-0 pixels²) of correspondence i under P,
    // into *r2; false, and *r2 untouched, when the point is behind the camera.
    bool squared_error(const CameraPose &P, int i, double *r2) const {
        const Eigen::Vector3d Z = P.R * X[i] + P.t;
        if (Z.z() <= 0) return false;
        const double wi = weight(i);
        const double rx = wi * fx * (Z.x() / Z.z() - xn[i].x());
        const double ry = wi * fy * (Z.y() / Z.z() - xn[i].y());
        *r2 = rx * rx + ry * ry;
        return true;
    }
};

struct LMOptions {
    int max_iterations = 30;
    RobustLoss loss;
    double step_tol = 1e-12;             // stop when the step is this small (radians / relative)
    double relative_decrease_tol = 1e-9; // stop when a step lowers the cost by less than this
};

struct LMReport {
    int iterations = 0;
    double initial_cost = 0, final_cost = 0;
};

// Cost of pose under the loss; points behind the camera cost a large fixed penalty.
double pose_cost(const PoseProblem &p, const CameraPose &pose, const RobustLoss &loss,
                 const int *subset = nullptr, int subset_n = 0);

// Refines `pose` in place. When `subset` is given only those indices are used.
LMReport refine_pose_lm(const PoseProblem &p, CameraPose *pose, const LMOptions &opt,
                        const int *subset = nullptr, int subset_n = 0);

}  // namespace vc
