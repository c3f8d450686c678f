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
