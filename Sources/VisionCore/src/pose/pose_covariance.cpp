#include "pose_covariance.hpp"
#include "error_bound.hpp"
#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace vc {
namespace {

using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec6 = Eigen::Matrix<double, 6, 1>;

// Per-thread scratch: each correspondence's inverse residual covariance, the regions and
// their shares of the normal equations.
thread_local std::vector<Eigen::Matrix2d, Eigen::aligned_allocator<Eigen::Matrix2d>> t_weights;
thread_local std::vector<char> t_usable;
thread_local std::vector<int> t_group_ids, t_group_sizes, t_slot;
thread_local std::vector<Mat6, Eigen::aligned_allocator<Mat6>> t_group_H;
thread_local std::vector<Vec6, Eigen::aligned_allocator<Vec6>> t_group_b;

// Pixel residual of correspondence i under `pose` and its Jacobian with respect to (ω, δ);
// false when the point is behind the camera. Also the 2×3 Jacobian of the pixel with
// respect to the world point, when `jx` is given.
bool linearize(const PoseProblem &p, const CameraPose &pose, int i, Eigen::Vector2d *r, Eigen::Matrix<double, 2, 6> *J,
               Eigen::Matrix<double, 2, 3> *jx = nullptr) {
    const Eigen::Vector3d RX = pose.R * p.X[i];
    const Eigen::Vector3d Z = RX + pose.t;
    if (Z.z() <= 1e-12) return false;
    const double iz = 1 / Z.z(), u = Z.x() * iz, v = Z.y() * iz;
    *r = Eigen::Vector2d(p.fx * (u - p.xn[i].x()), p.fy * (v - p.xn[i].y()));
    Eigen::Matrix<double, 2, 3> A;
    A << p.fx * iz, 0, -p.fx * u * iz, 0, p.fy * iz, -p.fy * v * iz;
    // dZ/d(ω, δ) = [−[RX]× | I].
    J->leftCols<3>() = -A * skew(RX);
    J->rightCols<3>() = A;
    if (jx) *jx = A * pose.R;
    return true;
}

// Correspondence i's share of the normal equations (its residual r and Jacobian J, its
// weight W), added to *H, *b and *chi2; its Hᵢ and bᵢ also to a region's, when given.
inline void add_share(const Eigen::Vector2d &r, const Eigen::Matrix<double, 2, 6> &J, const Eigen::Matrix2d &W,
                      Mat6 *H, Vec6 *b, double *chi2, Mat6 *region_H = nullptr, Vec6 *region_b = nullptr) {
    const Eigen::Matrix<double, 6, 2> JtW = J.transpose() * W;
    const Mat6 Hi = JtW * J;
    const Vec6 bi = JtW * r;
    *H += Hi;
    *b += bi;
    *chi2 += r.dot(W * r);
    if (region_H) {
        *region_H += Hi;
        *region_b += bi;
    }
}

// The gravity prior's share of the normal equations at `pose`, when it has one.
inline void add_gravity(const PoseProblem &p, const CameraPose &pose, Mat6 *H, Vec6 *b, double *chi2) {
    if (p.gravity_weight > 0) {
        const Eigen::Vector3d g = p.gravity_weight * (pose.R.col(1) - p.up_cam);
        const Eigen::Matrix3d Jw = -p.gravity_weight * skew(pose.R.col(1));
        H->topLeftCorner<3, 3>().noalias() += Jw.transpose() * Jw;
        b->head<3>().noalias() += Jw.transpose() * g;
        *chi2 += g.squaredNorm();
    }
}

// Gauss–Newton normal equations at `pose` over the usable correspondences, with the
// weights fixed in t_weights; χ² into *chi2. With `slot` (a region index per
// correspondence, negative: none), each region's share also goes into region_H, region_b.
int accumulate(const PoseProblem &p, const CameraPose &pose, Mat6 *H, Vec6 *b, double *chi2,
               const int *slot = nullptr, Mat6 *region_H = nullptr, Vec6 *region_b = nullptr) {
    // Bound once: every use of a thread_local by name calls its TLS wrapper.
    const auto &usable = t_usable;
    const auto &weights = t_weights;
    H->setZero();
    b->setZero();
    *chi2 = 0;
    int used = 0;
    Eigen::Vector2d r;
    Eigen::Matrix<double, 2, 6> J;
    for (int i = 0; i < p.n; ++i) {
        if (!usable[size_t(i)] || !linearize(p, pose, i, &r, &J)) continue;
        const bool in_region = slot && slot[i] >= 0;
        add_share(r, J, weights[size_t(i)], H, b, chi2, in_region ? &region_H[slot[i]] : nullptr,
                  in_region ? &region_b[slot[i]] : nullptr);
        ++used;
    }
    add_gravity(p, pose, H, b, chi2);
    return used;
}

// Inverse of a symmetric positive definite H, equilibrated first: rotation and translation
// columns differ by the scene's depth, which can be 1e-3 or 1e3 in arbitrary map units.
// D H D with D = diag(H)^(-1/2), unit diagonal; *d receives D's diagonal.
Mat6 equilibrated(const Mat6 &H, Vec6 *d) {
    *d = H.diagonal().cwiseMax(1e-300).cwiseSqrt().cwiseInverse();
    return d->asDiagonal() * H * d->asDiagonal();
}

bool invert(const Mat6 &H, Mat6 *out) {
    Vec6 d;
    Eigen::SelfAdjointEigenSolver<Mat6> eig(equilibrated(H, &d));
    if (eig.info() != Eigen::Success) return false;
    const double lmax = eig.eigenvalues().maxCoeff(), lmin = eig.eigenvalues().minCoeff();
    if (!(lmin > 1e-12 * lmax)) return false;
    *out = d.asDiagonal() * (eig.eigenvectors() * eig.eigenvalues().cwiseInverse().asDiagonal() *
                             eig.eigenvectors().transpose()) * d.asDiagonal();
    return true;
}

// Solves H x = rhs for a symmetric positive semi-definite H, equilibrated as `invert` does;
// false when H is (nearly) singular. A factorisation, not an eigen-decomposition: the
// jackknife solves one system per region.
bool solve_spd(const Mat6 &H, const Vec6 &rhs, Vec6 *x) {
    Vec6 d;
    const Eigen::LDLT<Mat6> ldlt(equilibrated(H, &d));
    if (ldlt.info() != Eigen::Success) return false;
    const Vec6 D = ldlt.vectorD();
    if (!(D.minCoeff() > 1e-12 * D.maxCoeff())) return false;
    *x = d.asDiagonal() * ldlt.solve(d.asDiagonal() * rhs);
    return x->allFinite();
}

// Gauss–Newton steps from `pose` until the step is negligible (at most `iterations`); false
// when the correspondences do not determine the pose. H0, b0, used0: the normal equations
// at `pose` itself, already accumulated by the caller (the first step's). The jackknife's
// steps start from this solution and scale each region's shift by n / m − 1, so an
// unconverged solve would pass for variance.
bool resolve(const PoseProblem &p, CameraPose *pose, int iterations, const Mat6 &H0, const Vec6 &b0, int used0) {
    Mat6 H = H0;
    Vec6 b = b0, step;
    double chi2;
    for (int it = 0; it < iterations; ++it) {
        const int used = it == 0 ? used0 : accumulate(p, *pose, &H, &b, &chi2);
        if (used < 3 || !solve_spd(H, -b, &step)) return false;
        pose->R = exp_so3(step.head<3>()) * pose->R;
        pose->t += step.tail<3>();
        // Converged: the step turns the camera by less than 1e-10 rad and moves it by less
        // than 1e-10 of its distance from the origin (far below a pixel's worth of either).
        const double scale = std::max(1.0, pose->t.norm());
        if (step.head<3>().norm() < 1e-10 && step.tail<3>().norm() < 1e-10 * scale) break;
    }
    return true;
}

double worst_sigma(const Eigen::Matrix3d &C) {
    return std::sqrt(std::max(0.0, Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(C, Eigen::EigenvaluesOnly)
                                       .eigenvalues().maxCoeff()));
}

// Jacobian of the camera centre c = −Rᵀt in (ω, δ). With (exp(ω)R)ᵀ ≈ Rᵀ(I − [ω]×):
// c′ ≈ −Rᵀ(t + δ) + Rᵀ[ω]×t = c − Rᵀ[t]×ω − Rᵀδ.
Eigen::Matrix<double, 3, 6> centre_jacobian(const CameraPose &P) {
    Eigen::Matrix<double, 3, 6> Jc;
    Jc.leftCols<3>() = -P.R.transpose() * skew(P.t);
    Jc.rightCols<3>() = -P.R.transpose();
    return Jc;
}

}  // namespace

PoseCovariance pose_covariance(const PoseProblem &p, const CameraPose &pose, const double *point_cov,
                               const int32_t *groups, const double *intrinsics_sigma) {
    PoseCovariance out;
    out.refined = pose;
    const double inf = std::numeric_limits<double>::infinity();
    // Until the pose is shown determined, nothing about it is bounded.
    out.rotation_sigma = out.centre_sigma = out.rotation_bound95 = out.centre_bound95 = inf;
    out.pose.setConstant(inf);
    out.centre.setConstant(inf);
    // Bound once: every use of a thread_local by name calls its TLS wrapper.
    auto &weights = t_weights;
    auto &usable = t_usable;
    auto &group_ids = t_group_ids, &group_sizes = t_group_sizes, &slot = t_slot;
    auto &group_H = t_group_H;
    auto &group_b = t_group_b;

    // Each correspondence's residual covariance: keypoint noise (level-0 pixels at its
    // level) plus the world point's covariance seen through the projection.
    weights.resize(size_t(p.n));
    usable.assign(size_t(p.n), 0);
    Eigen::Vector2d r;
    Eigen::Matrix<double, 2, 6> J;
    Eigen::Matrix<double, 2, 3> JX;
    // Intrinsics known only to their calibration's accuracy move every projection together:
    // a common-mode error no residual and no region left out can show. First order: the pose
    // moves by −H⁻¹ S δK, S = Σ Jᵢᵀ Wᵢ ∂rᵢ/∂(fx, fy, cx, cy), gathered in the same pass.
    Eigen::Matrix<double, 6, 4> S_K = Eigen::Matrix<double, 6, 4>::Zero();
    // The normal equations at `pose` in the same pass: the weights are fixed as they are
    // made, and each correspondence is linearized once.
    Mat6 H, cov;
    Vec6 b;
    double chi2 = 0;
    H.setZero();
    b.setZero();
    int used = 0;
    for (int i = 0; i < p.n; ++i) {
        if (!linearize(p, pose, i, &r, &J, &JX)) continue;
        const double s = 1 / p.weight(i);
        Eigen::Matrix2d C = s * s * Eigen::Matrix2d::Identity();
        if (point_cov) {
            const double *c = point_cov + 6 * size_t(i);
            Eigen::Matrix3d S;
            S << c[0], c[1], c[2], c[1], c[3], c[4], c[2], c[4], c[5];
            C.noalias() += JX * S * JX.transpose();
        }
        weights[size_t(i)] = C.inverse();
        usable[size_t(i)] = 1;
        if (intrinsics_sigma) {
            const Eigen::Vector3d Z = pose.R * p.X[i] + pose.t;
            Eigen::Matrix<double, 2, 4> JK;
            JK << Z.x() / Z.z(), 0, 1, 0, 0, Z.y() / Z.z(), 0, 1;
            S_K.noalias() += J.transpose() * weights[size_t(i)] * JK;
        }
        add_share(r, J, weights[size_t(i)], &H, &b, &chi2);
        ++used;
    }
    add_gravity(p, pose, &H, &b, &chi2);
    if (used < 3 || !invert(H, &cov)) return out;
    // The residuals' own variance factor (2 per correspondence, 2 from a gravity prior, 6
    // unknowns), never below the noise model's.
    const int dof = 2 * used + (p.gravity_weight > 0 ? 2 : 0) - 6;
    const double factor = dof > 0 ? std::max(1.0, chi2 / dof) : 1.0;
    out.residual_scale = std::sqrt(factor);
    Mat6 from_intrinsics = Mat6::Zero();
    if (intrinsics_sigma) {
        const Eigen::Vector4d sk(intrinsics_sigma[0], intrinsics_sigma[1], intrinsics_sigma[2], intrinsics_sigma[3]);
        const Eigen::Matrix<double, 6, 4> M = cov * S_K;
        from_intrinsics = M * sk.cwiseAbs2().asDiagonal() * M.transpose();
    }
    out.pose = factor * cov + from_intrinsics;
    const Eigen::Matrix<double, 3, 6> Jc = centre_jacobian(pose);
    out.centre = Jc * out.pose * Jc.transpose();
    out.rotation_sigma = worst_sigma(out.pose.topLeftCorner<3, 3>());
    out.centre_sigma = worst_sigma(out.centre);
    out.determined = std::isfinite(out.rotation_sigma) && std::isfinite(out.centre_sigma);
    if (!out.determined) return out;
    out.rotation_bound95 = norm_bound(out.pose.topLeftCorner<3, 3>(), kKnown, kBoundProbability);
    out.centre_bound95 = norm_bound(out.centre, kKnown, kBoundProbability);
    if (!groups) return out;

    // Delete-a-group jackknife with groups of unequal size (Busing, Meijer & van der Leeden
    // 1999): pseudo-values h θ̂ − (h − 1) θ₋g with h = n / m_g, about the full solution.
    group_ids.clear();
    group_sizes.clear();
    slot.assign(size_t(p.n), -1);
    for (int i = 0; i < p.n; ++i) {
        if (!usable[size_t(i)] || groups[i] < 0) continue;
        const auto it = std::find(group_ids.begin(), group_ids.end(), groups[i]);
        slot[size_t(i)] = int(it - group_ids.begin());
        if (it == group_ids.end()) {
            group_ids.push_back(groups[i]);
            group_sizes.push_back(1);
        } else {
            ++group_sizes[size_t(slot[size_t(i)])];
        }
    }
    int grouped = 0, regions = 0;
    for (size_t g = 0; g < group_ids.size(); ++g) {
        grouped += group_sizes[g];
        if (group_sizes[g] >= 2) ++regions;
    }
    if (regions < 4) return out;
    CameraPose full = pose;
    if (!resolve(p, &full, 20, H, b, used)) return out;
    // Each region's share of the normal equations at `full`, in one pass; leaving a region
    // out is then one Gauss–Newton step from `full` on the rest (a linearised jackknife:
    // a region holds a few percent of the inliers, and the step from the full solution is
    // as small as the region's pull).
    group_H.assign(group_ids.size(), Mat6::Zero());
    group_b.assign(group_ids.size(), Vec6::Zero());
    Mat6 H_all;
    Vec6 b_all;
    accumulate(p, full, &H_all, &b_all, &chi2, slot.data(), group_H.data(), group_b.data());
    const Eigen::Matrix<double, 3, 6> Jc_full = centre_jacobian(full);
    std::vector<Vec6> left_out;
    std::vector<double> h;
    left_out.reserve(group_ids.size());
    h.reserve(group_ids.size());
    for (size_t g = 0; g < group_ids.size(); ++g) {
        if (group_sizes[g] < 2 || group_sizes[g] >= grouped) continue;
        Vec6 step;
        // A region the rest cannot do without: the pose rests on it alone, which is as
        // uncertain as a pose gets.
        if (!solve_spd(H_all - group_H[g], group_b[g] - b_all, &step)) {
            out.rotation_sigma = out.centre_sigma = out.rotation_bound95 = out.centre_bound95 = inf;
            out.determined = false;
            return out;
        }
        Vec6 v;
        v.head<3>() = step.head<3>();
        v.tail<3>() = Jc_full * step;
        left_out.push_back(v);
        h.push_back(double(grouped) / group_sizes[g]);
    }
    const int G = int(left_out.size());
    if (G < 4) return out;
    // The jackknife bounds the error of `full`, the weighted least-squares pose under this
    // noise model, which the bounds then describe.
    out.refined = full;
    Vec6 mean = Vec6::Zero();
    for (int g = 0; g < G; ++g) mean -= (1 - 1 / h[size_t(g)]) * left_out[size_t(g)];
    Mat6 var = Mat6::Zero();
    for (int g = 0; g < G; ++g) {
        const Vec6 d = -(h[size_t(g)] - 1) * left_out[size_t(g)] - mean;
        var.noalias() += d * d.transpose() / (h[size_t(g)] - 1);
    }
    var /= G;
    out.jackknife_groups = G;
    out.jackknife_rotation_sigma = worst_sigma(var.topLeftCorner<3, 3>());
    out.jackknife_centre_sigma = worst_sigma(var.bottomRightCorner<3, 3>());
    out.rotation_sigma = std::max(out.rotation_sigma, out.jackknife_rotation_sigma);
    out.centre_sigma = std::max(out.centre_sigma, out.jackknife_centre_sigma);
    // The jackknife sees the noise, not the intrinsics: their part adds to its bound. Its
    // covariance is estimated from G regions: G − 1 degrees of freedom.
    const double jackknife_dof = G - 1;
    const double kr = norm_bound(from_intrinsics.topLeftCorner<3, 3>(), kKnown, kBoundProbability);
    const double kc = norm_bound(Jc * from_intrinsics * Jc.transpose(), kKnown, kBoundProbability);
    out.rotation_bound95 = std::max(out.rotation_bound95,
                                    std::hypot(norm_bound(var.topLeftCorner<3, 3>(), jackknife_dof, kBoundProbability), kr));
    out.centre_bound95 = std::max(out.centre_bound95,
                                  std::hypot(norm_bound(var.bottomRightCorner<3, 3>(), jackknife_dof, kBoundProbability), kc));
    return out;
}

}  // namespace vc
