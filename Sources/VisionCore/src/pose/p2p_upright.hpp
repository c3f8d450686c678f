// Minimal absolute pose from two 2D–3D correspondences when the camera's gravity
// direction is known, e.g. from the phone's IMU ("upright" P2P; Kukelova, Bujnak, Pajdla,
// "Closed-form solutions to minimal absolute pose problems with known vertical direction",
// ACCV 2010). Known gravity leaves four unknowns, yaw and translation, so two points
// suffice: RANSAC then needs ~1/w² samples instead of P3P's ~1/w³ at inlier ratio w,
// which is what makes blurred or dim frames (w of a few per cent) solvable at all.
//
// The map frame has +y up: gravity points along world (0, −1, 0).
#pragma once
#include "camera_pose.hpp"

namespace vc {

// A rotation taking camera coordinates into an "upright" camera frame, in which the
// camera's measured gravity `down_cam` (any length > 0) points along (0, −1, 0). The
// rotation is the smallest one that does so; the yaw left free is what P2P solves for.
Eigen::Matrix3d gravity_alignment(const Eigen::Vector3d &down_cam);

// bearings: two camera rays already in the upright frame (R_gravity · ray, any length > 0);
// X: their world points. Writes up to 2 poses that map world points into the UPRIGHT frame
// (X_up = R X + t with R a rotation about y) and returns their number: 0 for degenerate
// input (coincident points, rays parallel to gravity through both points). Poses that put
// either point behind the camera are dropped.
int p2p_upright(const Eigen::Vector3d bearings[2], const Eigen::Vector3d X[2], CameraPose out[2]);

}  // namespace vc
