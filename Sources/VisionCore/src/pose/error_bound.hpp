// A bound on the length of an error vector from its covariance: the p-quantile of ‖e‖ for
// e ~ N(0, Σ), with Σ itself estimated from `dof` degrees of freedom (infinity: known).
//
// ‖e‖² = Σ λᵢ zᵢ² is a weighted sum of χ²₁ variables; it is matched by its first two moments
// to c · χ²_d (Welch–Satterthwaite: c = Σλ² / Σλ, d = (Σλ)² / Σλ², 1 ≤ d ≤ 3), exact when
// the eigenvalues are equal or one dominates. An estimated Σ widens χ²_d / d to F(d, dof),
// as Student's t widens the normal. A sphere of k·√λmax around the worst axis, the bound of
// the largest eigenvalue alone, overstates an error that lies along one direction by up to
// √3 (χ²₃ against χ²₁).
#pragma once
#include <Eigen/Core>

namespace vc {

// The p-quantile (0 < p < 1) of ‖e‖; 0 for a zero covariance.
double norm_bound(const Eigen::Matrix3d &covariance, double dof, double p);

// The p-quantile of the F(d1, d2) distribution (d1, d2 > 0, real).
double f_quantile(double p, double d1, double d2);

}  // namespace vc
