#include "error_bound.hpp"
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>

namespace vc {
namespace {

// Continued fraction of the regularized incomplete beta function (Lentz's method).
double beta_fraction(double a, double b, double x) {
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = 1 / (std::fabs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 500; ++m) {
        const double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        d = 1 + aa * d; d = 1 / (std::fabs(d) < tiny ? tiny : d);
        c = 1 + aa / c; if (std::fabs(c) < tiny) c = tiny;
        h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        d = 1 + aa * d; d = 1 / (std::fabs(d) < tiny ? tiny : d);
        c = 1 + aa / c; if (std::fabs(c) < tiny) c = tiny;
        const double step = d * c;
        h *= step;
        if (std::fabs(step - 1) < 1e-14) break;
    }
    return h;
}

// I_x(a, b).
double incomplete_beta(double a, double b, double x) {
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) +
                                  b * std::log1p(-x));
    return x < (a + 1) / (a + b + 2) ? front * beta_fraction(a, b, x) / a
                                     : 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double f_cdf(double x, double d1, double d2) {
    return x <= 0 ? 0 : incomplete_beta(d1 / 2, d2 / 2, d1 * x / (d1 * x + d2));
}

}  // namespace

double f_quantile(double p, double d1, double d2) {
    double lo = 0, hi = 1;
    while (f_cdf(hi, d1, d2) < p && hi < 1e12) hi *= 2;
    // Newton on the CDF, kept inside the bracket [lo, hi] by bisection: a few evaluations
    // instead of forty.
    const double log_norm = 0.5 * d1 * std::log(d1) + 0.5 * d2 * std::log(d2) -
                            (std::lgamma(0.5 * d1) + std::lgamma(0.5 * d2) - std::lgamma(0.5 * (d1 + d2)));
    double x = 0.5 * (lo + hi);
    for (int i = 0; i < 100 && hi - lo > 1e-12 * hi; ++i) {
        const double F = f_cdf(x, d1, d2);
        (F < p ? lo : hi) = x;
        const double log_pdf = log_norm + (0.5 * d1 - 1) * std::log(x) - 0.5 * (d1 + d2) * std::log(d2 + d1 * x);
        const double next = x - (F - p) / std::exp(log_pdf);
        if (std::abs(next - x) <= 1e-13 * x) { x = next; break; }
        x = next > lo && next < hi && std::isfinite(next) ? next : 0.5 * (lo + hi);
    }
    return x;
}

double norm_bound(const Eigen::Matrix3d &covariance, double dof, double p) {
    // A covariance that is not finite bounds nothing (0 here would claim an exact pose).
    if (!covariance.allFinite()) return std::numeric_limits<double>::infinity();
    const Eigen::Vector3d l =
        Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(covariance, Eigen::EigenvaluesOnly).eigenvalues().cwiseMax(0.0);
    const double s1 = l.sum(), s2 = l.squaredNorm();
    if (!(s1 > 0)) return 0;  // no variance: no error
    const double c = s2 / s1, d = std::clamp(s1 * s1 / s2, 1.0, 3.0);
    // A known covariance: F(d, ∞) = χ²_d / d, reached closely enough at 10⁶ degrees of freedom.
    const double nu = std::isfinite(dof) ? std::max(dof, 0.5) : 1e6;
    return std::sqrt(c * d * f_quantile(p, d, nu));
}

}  // namespace vc
