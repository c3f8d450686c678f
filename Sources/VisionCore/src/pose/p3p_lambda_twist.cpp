// Lambda Twist P3P. The unknown depths Λ = (λ0, λ1, λ2) satisfy, for each pair (i, j),
//   λi² + λj² − 2 bij λi λj = aij   (bij = xi·xj, aij = |Xi − Xj|²),
// i.e. ΛᵀMijΛ = aij. Eliminating the aij gives two homogeneous conics D1, D2 whose pencil
// contains a degenerate member D0 = D1 + γ D2 (a root of the cubic det(D0) = 0). A
// degenerate conic with eigenvalues of opposite sign is a pair of planes through the
// origin; on each plane one conic reduces to a quadratic in λi/λj, the scale follows from
// one pair distance. Depths are then polished by Gauss–Newton and the pose recovered from
// the two triangles.
#include "p3p_lambda_twist.hpp"
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>

namespace vc {
namespace {

// Real roots of c3 x³ + c2 x² + c1 x + c0, polished by Newton; returns the count.
int real_cubic_roots(double c3, double c2, double c1, double c0, double roots[3]) {
    const double scale = std::abs(c0) + std::abs(c1) + std::abs(c2) + std::abs(c3);
    if (scale == 0) return 0;
    int n = 0;
    if (std::abs(c3) < 1e-14 * scale) {
        if (std::abs(c2) < 1e-14 * scale) {
            if (c1 == 0) return 0;
            roots[0] = -c0 / c1;
            return 1;
        }
        const double disc = c1 * c1 - 4 * c2 * c0;
        if (disc < 0) return 0;
        const double q = -0.5 * (c1 + std::copysign(std::sqrt(disc), c1));
        roots[n++] = q / c2;
        if (q != 0) roots[n++] = c0 / q;
        return n;
    }
    const double a = c2 / c3, b = c1 / c3, c = c0 / c3;
    // Depressed cubic t³ + p t + q with x = t − a/3.
    const double p = b - a * a / 3, q = 2 * a * a * a / 27 - a * b / 3 + c;
    const double disc = q * q / 4 + p * p * p / 27;
    if (disc > 0) {
        const double s = std::sqrt(disc);
        roots[n++] = std::cbrt(-q / 2 + s) + std::cbrt(-q / 2 - s) - a / 3;
    } else if (p == 0) {
        roots[n++] = -a / 3;
    } else {
        const double m = 2 * std::sqrt(-p / 3);
        const double arg = std::max(-1.0, std::min(1.0, 3 * q / (p * m)));
        const double th = std::acos(arg) / 3;
        for (int k = 0; k < 3; ++k) roots[n++] = m * std::cos(th - 2 * M_PI * k / 3) - a / 3;
    }
    for (int k = 0; k < n; ++k) {
        double x = roots[k];
        for (int it = 0; it < 2; ++it) {
            const double f = ((c3 * x + c2) * x + c1) * x + c0;
            const double df = (3 * c3 * x + 2 * c2) * x + c1;
            if (df == 0) break;
            x -= f / df;
        }
        roots[k] = x;
    }
    return n;
}

// tr(adj(A) B), with adj(A) rows given by cross products of A's columns.
double trace_adj_times(const Eigen::Matrix3d &A, const Eigen::Matrix3d &B) {
    return A.col(1).cross(A.col(2)).dot(B.col(0)) + A.col(2).cross(A.col(0)).dot(B.col(1)) +
           A.col(0).cross(A.col(1)).dot(B.col(2));
}

}  // namespace

int p3p_lambda_twist(const Eigen::Vector3d bearings[3], const Eigen::Vector3d X[3],
                     CameraPose out[4]) {
    Eigen::Vector3d x[3];
    for (int i = 0; i < 3; ++i) {
        const double nrm = bearings[i].norm();
        if (!(nrm > 0)) return 0;
        x[i] = bearings[i] / nrm;
    }
    const Eigen::Vector3d X01 = X[0] - X[1], X02 = X[0] - X[2], X12 = X[1] - X[2];
    const double a01 = X01.squaredNorm(), a02 = X02.squaredNorm(), a12 = X12.squaredNorm();
    const double b01 = x[0].dot(x[1]), b02 = x[0].dot(x[2]), b12 = x[1].dot(x[2]);

    // The world triangle fixes the rotation later; collinear points have no unique pose.
    Eigen::Matrix3d Xm;
    Xm.col(0) = X01;
    Xm.col(1) = X02;
    Xm.col(2) = X01.cross(X02);
    const double xdet = Xm.col(2).squaredNorm();
    if (!(xdet > 1e-20 * a01 * a02)) return 0;
    const Eigen::Matrix3d Xinv = Xm.inverse();

    Eigen::Matrix3d M01, M02, M12;
    M01 << 1, -b01, 0, -b01, 1, 0, 0, 0, 0;
    M02 << 1, 0, -b02, 0, 0, 0, -b02, 0, 1;
    M12 << 0, 0, 0, 0, 1, -b12, 0, -b12, 1;
    const Eigen::Matrix3d D1 = a12 * M01 - a01 * M12;
    const Eigen::Matrix3d D2 = a12 * M02 - a02 * M12;

    // det(D1 + γ D2) = det D1 + γ tr(adj(D1) D2) + γ² tr(adj(D2) D1) + γ³ det D2.
    double gammas[3];
    const int ng = real_cubic_roots(D2.determinant(), trace_adj_times(D2, D1),
                                    trace_adj_times(D1, D2), D1.determinant(), gammas);

    const double a_pair[3][3] = {{0, a01, a02}, {a01, 0, a12}, {a02, a12, 0}};
    const double b_pair[3][3] = {{1, b01, b02}, {b01, 1, b12}, {b02, b12, 1}};

    int count = 0;
    for (int g = 0; g < ng && count == 0; ++g) {
        const double gamma = gammas[g];
        const Eigen::Matrix3d D0 = D1 + gamma * D2;
        Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> es;
        es.computeDirect(D0);
        const Eigen::Vector3d ev = es.eigenvalues();
        int z = 0;  // the (numerically) zero eigenvalue
        for (int k = 1; k < 3; ++k)
            if (std::abs(ev[k]) < std::abs(ev[z])) z = k;
        const int ia = (z + 1) % 3, ib = (z + 2) % 3;
        int pos = ia, neg = ib;
        if (ev[pos] < ev[neg]) std::swap(pos, neg);
        if (!(ev[pos] > 0 && ev[neg] < 0)) continue;  // planes are complex: try another γ
        const double s = std::sqrt(-ev[neg] / ev[pos]);
        const Eigen::Vector3d vp = es.eigenvectors().col(pos), vn = es.eigenvectors().col(neg);
        // On the planes D0 vanishes, so D1 = −γ D2 there: use the conic with more signal.
        const Eigen::Matrix3d &Q = std::abs(gamma) > 1 ? D1 : D2;

        for (int sign = -1; sign <= 1; sign += 2) {
            const Eigen::Vector3d w = vp + sign * s * vn;  // plane w·Λ = 0
            int k = 0;
            for (int m = 1; m < 3; ++m)
                if (std::abs(w[m]) > std::abs(w[k])) k = m;
            if (w[k] == 0) continue;
            const int i = (k + 1) % 3 < (k + 2) % 3 ? (k + 1) % 3 : (k + 2) % 3;
            const int j = 3 - k - i;
            // Λ = λi u + λj v on the plane.
            Eigen::Vector3d u = Eigen::Vector3d::Zero(), v = Eigen::Vector3d::Zero();
            u[i] = 1;
            u[k] = -w[i] / w[k];
            v[j] = 1;
            v[k] = -w[j] / w[k];
            const double A = u.dot(Q * u), B = 2 * u.dot(Q * v), C = v.dot(Q * v);
            double taus[2];
            int nt = 0;
            const double qs = std::abs(A) + std::abs(B) + std::abs(C);
            if (std::abs(A) < 1e-14 * qs) {
                if (B != 0) taus[nt++] = -C / B;
            } else {
                double disc = B * B - 4 * A * C;
                if (disc < 0 && disc > -1e-12 * B * B) disc = 0;  // tangent up to rounding
                if (disc >= 0) {
                    const double qq = -0.5 * (B + std::copysign(std::sqrt(disc), B));
                    taus[nt++] = qq / A;
                    if (qq != 0 && disc > 0) taus[nt++] = C / qq;
                }
            }
            for (int m = 0; m < nt; ++m) {
                const double tau = taus[m];  // λi / λj
                if (!(tau > 0)) continue;
                const double den = tau * tau - 2 * b_pair[i][j] * tau + 1;
                if (!(den > 0)) continue;
                const double lj = std::sqrt(a_pair[i][j] / den);
                const double li = tau * lj;
                const double lk = u[k] * li + v[k] * lj;
                if (!(lk > 0)) continue;
                Eigen::Vector3d L;
                L[i] = li;
                L[j] = lj;
                L[k] = lk;
                // Gauss–Newton on the three distance equations.
                for (int it = 0; it < 5; ++it) {
                    const Eigen::Vector3d r(
                        L[0] * L[0] + L[1] * L[1] - 2 * b01 * L[0] * L[1] - a01,
                        L[0] * L[0] + L[2] * L[2] - 2 * b02 * L[0] * L[2] - a02,
                        L[1] * L[1] + L[2] * L[2] - 2 * b12 * L[1] * L[2] - a12);
                    if (r.cwiseAbs().maxCoeff() < 1e-14 * (a01 + a02 + a12)) break;
                    Eigen::Matrix3d J;
                    J << 2 * (L[0] - b01 * L[1]), 2 * (L[1] - b01 * L[0]), 0,
                         2 * (L[0] - b02 * L[2]), 0, 2 * (L[2] - b02 * L[0]),
                         0, 2 * (L[1] - b12 * L[2]), 2 * (L[2] - b12 * L[1]);
                    const double det = J.determinant();
                    if (std::abs(det) < 1e-300) break;
                    L -= J.inverse() * r;
                }
                if (!(L.minCoeff() > 0)) continue;
                const Eigen::Vector3d Y0 = L[0] * x[0], Y1 = L[1] * x[1], Y2 = L[2] * x[2];
                Eigen::Matrix3d Ym;
                Ym.col(0) = Y0 - Y1;
                Ym.col(1) = Y0 - Y2;
                Ym.col(2) = Ym.col(0).cross(Ym.col(1));
                CameraPose &P = out[count];
                P.R = Ym * Xinv;
                P.t = Y0 - P.R * X[0];
                ++count;
                if (count == 4) return count;
            }
        }
    }
    return count;
}

}  // namespace vc
