// Minimal absolute pose from three 2D–3D correspondences: Lambda Twist
// (Persson & Nordberg, "Lambda Twist: An Accurate Fast Robust Perspective Three Point
// (P3P) Solver", ECCV 2018).
#pragma once
#include "camera_pose.hpp"

namespace vc {

// bearings: three camera rays (need not be unit length); X: the three world points.
// Writes up to 4 poses to out and returns their number (0 for degenerate input).
int p3p_lambda_twist(const Eigen::Vector3d bearings[3], const Eigen::Vector3d X[3],
                     CameraPose out[4]);

}  // namespace vc
