// The model every absolute-pose piece shares: X_cam = R * X_world + t.
#pragma once
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace vc {

struct CameraPose {
    Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
    Eigen::Vector3d t = Eigen::Vector3d::Zero();

    Eigen::Vector3d apply(const Eigen::Vector3d &X) const { return R * X + t; }
};

// The cross-product matrix [w]×: skew(w) * v == w.cross(v).
inline Eigen::Matrix3d skew(const Eigen::Vector3d &w) {
    Eigen::Matrix3d K;
    K << 0, -w.z(), w.y(), w.z(), 0, -w.x(), -w.y(), w.x(), 0;
    return K;
}

// Rotation matrix of the rotation vector w (Rodrigues), accurate near zero.
inline Eigen::Matrix3d exp_so3(const Eigen::Vector3d &w) {
    const double th2 = w.squaredNorm();
    const Eigen::Matrix3d K = skew(w);
    double a, b;
    if (th2 < 1e-16) {
        a = 1 - th2 / 6;
        b = 0.5 - th2 / 24;
    } else {
        const double th = std::sqrt(th2);
        a = std::sin(th) / th;
        b = (1 - std::cos(th)) / th2;
    }
    return Eigen::Matrix3d::Identity() + a * K + b * K * K;
}

}  // namespace vc
