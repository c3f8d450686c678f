#include "pose_covariance.hpp"
#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>

namespace vc {

PoseCovariance pose_covariance(const PoseProblem &p, const CameraPose &pose, const int *subset, int subset_n,
                               const double *point_sigma_px) {
    using Mat6 = Eigen::Matrix<double, 6, 6>;
    Mat6 H = Mat6::Zero();
    int used = 0;
    const int count = subset ? subset_n : p.n;
    for (int k = 0; k < count; ++k) {
        const int i = subset ? subset[k] : k;
        const Eigen::Vector3d RX = pose.R * p.X[i];
        const Eigen::Vector3d Z = RX + pose.t;
        if (Z.z() <= 1e-12) continue;
        // Keypoint noise σᵢ (level-0 pixels) and the point's own, added in quadrature.
        double s = 1 / p.weight(i);
        if (point_sigma_px) s = std::sqrt(s * s + point_sigma_px[k] * point_sigma_px[k]);
        const double iz = 1 / Z.z(), u = Z.x() * iz, v = Z.y() * iz;
        const double fx = p.fx / s, fy = p.fy / s;
        // Same Jacobian as the LM: dr/dZ · dZ/d(ω, δ) with dZ/d(ω, δ) = [−[RX]× | I].
        const double a = fx * iz, b = -fx * u * iz, c = fy * iz, d = -fy * v * iz;
        const double x = RX.x(), y = RX.y(), z = RX.z();
        Eigen::Matrix<double, 2, 6> J;
        J << b * y, a * z - b * x, -a * y, a, 0, b,
             d * y - c * z, -d * x, c * x, 0, c, d;
        H.noalias() += J.transpose() * J;
        ++used;
    }
    if (p.gravity_weight > 0) {
        const Eigen::Matrix3d Jw = -p.gravity_weight * skew(pose.R.col(1));
        H.topLeftCorner<3, 3>().noalias() += Jw.transpose() * Jw;
    }
    PoseCovariance out;
    const double inf = std::numeric_limits<double>::infinity();
    out.rotation_sigma = out.centre_sigma = inf;
    out.pose.setConstant(inf);
    out.centre.setConstant(inf);
    if (used < 3) return out;
    // Equilibrate before inverting: rotation and translation columns differ by the scene's
    // depth, which can be 1e-3 or 1e3 in arbitrary map units.
    const Eigen::Matrix<double, 6, 1> d = H.diagonal().cwiseMax(1e-300).cwiseSqrt().cwiseInverse();
    const Mat6 Hn = d.asDiagonal() * H * d.asDiagonal();
    Eigen::SelfAdjointEigenSolver<Mat6> eig(Hn);
    if (eig.info() != Eigen::Success) return out;
    const double lmax = eig.eigenvalues().maxCoeff(), lmin = eig.eigenvalues().minCoeff();
    if (!(lmin > 1e-12 * lmax)) return out;
    const Mat6 Cn = eig.eigenvectors() * eig.eigenvalues().cwiseInverse().asDiagonal() * eig.eigenvectors().transpose();
    out.pose = d.asDiagonal() * Cn * d.asDiagonal();
    // Centre c = −Rᵀt. With (exp(ω)R)ᵀ ≈ Rᵀ(I − [ω]×): c′ ≈ −Rᵀ(t + δ) + Rᵀ[ω]×t = c − Rᵀ[t]×ω − Rᵀδ.
    Eigen::Matrix<double, 3, 6> Jc;
    Jc.leftCols<3>() = -pose.R.transpose() * skew(pose.t);
    Jc.rightCols<3>() = -pose.R.transpose();
    out.centre = Jc * out.pose * Jc.transpose();
    out.rotation_sigma = std::sqrt(std::max(0.0, Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(
                                                     out.pose.topLeftCorner<3, 3>(), Eigen::EigenvaluesOnly)
                                                     .eigenvalues().maxCoeff()));
    out.centre_sigma = std::sqrt(std::max(0.0, Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(
                                                   out.centre, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff()));
    out.determined = std::isfinite(out.rotation_sigma) && std::isfinite(out.centre_sigma);
    return out;
}

}  // namespace vc
