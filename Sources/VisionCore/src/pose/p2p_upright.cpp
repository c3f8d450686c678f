// Upright P2P. In the upright frame a correspondence says λ b = R_y(θ) X + t. With
// q = tan(θ/2), (1 + q²) R_y(θ) X = q² A + q B + X, where A = (−X₁, X₂, −X₃) and
// B = (2X₃, 0, −2X₁). Writing s = (1 + q²) t, the ray constraint [b]× (R_y X + t) = 0
// becomes linear in s and quadratic in q:
//     [b]× s = −[b]× (q² A + q B + X).
// Two independent rows per point give four equations M s = −(q² a + q β + c) with M 4×3.
// They are consistent only if the left null vector n of M (nᵀM = 0) annihilates the
// right side: (n·a) q² + (n·β) q + n·c = 0. Each real root gives s by least squares.
#include "p2p_upright.hpp"
#include <Eigen/LU>
#include <cmath>

namespace vc {

Eigen::Matrix3d gravity_alignment(const Eigen::Vector3d &down_cam) {
    const Eigen::Vector3d d = down_cam.normalized(), e(0, -1, 0);
    const double c = d.dot(e);
    if (c < -1 + 1e-12) return Eigen::Vector3d(1, -1, -1).asDiagonal();  // upside down: π about x
    const Eigen::Matrix3d K = skew(d.cross(e));
    // Rodrigues for the rotation taking d to e: I + K + K² / (1 + c).
    return Eigen::Matrix3d::Identity() + K + K * K / (1 + c);
}

int p2p_upright(const Eigen::Vector3d bearings[2], const Eigen::Vector3d X[2], CameraPose out[2]) {
    Eigen::Matrix<double, 4, 3> M;
    Eigen::Vector4d a, beta, c;
    for (int i = 0; i < 2; ++i) {
        const Eigen::Vector3d &b = bearings[i], &P = X[i];
        const Eigen::Vector3d A(-P.x(), P.y(), -P.z()), B(2 * P.z(), 0, -2 * P.x());
        // Rows of [b]×; the row missing b's largest component is the weakest: drop it.
        const Eigen::Matrix3d bx = skew(b);
        int drop;
        b.cwiseAbs().maxCoeff(&drop);
        for (int r = 0, k = 2 * i; r < 3; ++r) {
            if (r == drop) continue;
            M.row(k) = bx.row(r);
            a[k] = bx.row(r).dot(A);
            beta[k] = bx.row(r).dot(B);
            c[k] = bx.row(r).dot(P);
            ++k;
        }
    }
    // Left null vector by cofactors: n_j = (−1)^j det(M without row j).
    Eigen::Vector4d n;
    for (int j = 0; j < 4; ++j) {
        Eigen::Matrix3d minor;
        for (int r = 0, k = 0; r < 4; ++r)
            if (r != j) minor.row(k++) = M.row(r);
        n[j] = (j % 2 ? -1 : 1) * minor.determinant();
    }
    const double q2 = n.dot(a), q1 = n.dot(beta), q0 = n.dot(c);
    const double scale = std::abs(q2) + std::abs(q1) + std::abs(q0);
    if (!(scale > 0) || !std::isfinite(scale)) return 0;
    const Eigen::Matrix3d MtM = M.transpose() * M;
    Eigen::FullPivLU<Eigen::Matrix3d> lu(MtM);
    if (lu.rank() < 3) return 0;
    int count = 0;
    // cs = cos θ, sn = sin θ, t from M t = rhs (least squares, exact for a true root).
    auto emit = [&](double cs, double sn, const Eigen::Vector4d &rhs) {
        CameraPose pose;
        pose.R << cs, 0, sn, 0, 1, 0, -sn, 0, cs;
        pose.t = lu.solve(M.transpose() * rhs);
        bool in_front = true;
        for (int i = 0; i < 2; ++i) in_front &= pose.apply(X[i]).dot(bearings[i]) > 0;
        if (in_front && pose.t.allFinite()) out[count++] = pose;
    };
    auto emit_q = [&](double q) {
        const double w = 1 / (1 + q * q);
        emit((1 - q * q) * w, 2 * q * w, -(q * q * a + q * beta + c) * w);
    };
    if (std::abs(q2) < 1e-12 * scale) {
        // The leading coefficient vanishes when θ = π (q = ∞) solves: M t = −a.
        emit(-1, 0, -a);
        if (std::abs(q1) >= 1e-12 * scale) emit_q(-q0 / q1);
    } else {
        const double disc = q1 * q1 - 4 * q2 * q0;
        if (disc < 0) return 0;
        // Numerically stable pair of roots.
        const double h = -0.5 * (q1 + std::copysign(std::sqrt(disc), q1));
        emit_q(h / q2);
        if (h != 0) emit_q(q0 / h);
    }
    return count;
}

}  // namespace vc
