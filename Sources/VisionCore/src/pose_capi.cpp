// C ABI for absolute pose: converts pixels to normalised coordinates once, runs the solver
// pieces in src/pose/, and writes results into caller buffers.
#include "vc_pose.h"
#include "vc_guarded.hpp"
#include "pose/absolute_pose_estimator.hpp"
#include "pose/lo_ransac.hpp"
#include "pose/pose_covariance.hpp"
#include <Eigen/SVD>
#include <cmath>
#include <vector>

namespace {

// Per-thread scratch reused across calls: no heap traffic once warmed up.
thread_local std::vector<Eigen::Vector2d> t_xn;
thread_local std::vector<Eigen::Vector3d> t_X, t_bearing;
thread_local std::vector<int> t_inliers, t_order, t_lo_scratch;
thread_local std::vector<double> t_w;

bool finite_all(const double *v, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (!std::isfinite(v[i])) return false;
    return true;
}

// Copies the correspondences into normalised scratch arrays. With `shuffle_seed`, in a
// random order (t_order[k] is the caller's index of entry k): RANSAC's SPRT test assumes
// the points it scores come in random order, and callers often pass sorted matches.
vc_status load(const vc_pinhole *cam, const double *p2, const double *p3, int32_t n,
               vc::PoseProblem *prob, bool bearings, const uint64_t *shuffle_seed = nullptr,
               const double *sigmas = nullptr) {
    if (!cam || n < 0 || (n > 0 && (!p2 || !p3)))
        return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument or negative count");
    if (!(cam->fx > 0 && cam->fy > 0) || !finite_all(&cam->fx, 4))
        return vc::fail(VC_ERR_INVALID_ARGUMENT, "camera needs positive finite focal lengths");
    if (!finite_all(p2, size_t(n) * 2) || !finite_all(p3, size_t(n) * 3))
        return vc::fail(VC_ERR_INVALID_ARGUMENT, "points must be finite");
    if (sigmas)
        for (int i = 0; i < n; ++i)
            if (!(sigmas[i] > 0) || !std::isfinite(sigmas[i]))
                return vc::fail(VC_ERR_INVALID_ARGUMENT, "sigmas must be positive and finite");
    // Bound once: every use of a thread_local by name calls its TLS wrapper.
    auto &xn = t_xn;
    auto &X = t_X, &bearing = t_bearing;
    auto &order = t_order;
    auto &w = t_w;
    xn.resize(size_t(n));
    if (sigmas) w.resize(size_t(n));
    X.resize(size_t(n));
    if (bearings) bearing.resize(size_t(n));
    order.resize(size_t(n));
    for (int i = 0; i < n; ++i) order[size_t(i)] = i;
    if (shuffle_seed) {
        vc::SplitMix64 rng(*shuffle_seed ^ 0xC0FFEEull);
        for (int i = n - 1; i > 0; --i) std::swap(order[size_t(i)], order[size_t(rng.below(i + 1))]);
    }
    for (int k = 0; k < n; ++k) {
        const int i = order[size_t(k)];
        xn[size_t(k)] = Eigen::Vector2d((p2[2 * i] - cam->cx) / cam->fx, (p2[2 * i + 1] - cam->cy) / cam->fy);
        X[size_t(k)] = Eigen::Vector3d(p3[3 * i], p3[3 * i + 1], p3[3 * i + 2]);
        if (bearings) bearing[size_t(k)] = xn[size_t(k)].homogeneous().normalized();
        if (sigmas) w[size_t(k)] = 1 / sigmas[i];
    }
    prob->w = sigmas ? w.data() : nullptr;
    prob->xn = xn.data();
    prob->X = X.data();
    prob->n = n;
    prob->fx = cam->fx;
    prob->fy = cam->fy;
    return VC_OK;
}

vc::RobustLoss make_loss(int32_t kind, double scale_px) {
    vc::RobustLoss l;
    l.kind = kind == VC_LOSS_TRIVIAL ? vc::LossKind::Trivial
           : kind == VC_LOSS_HUBER   ? vc::LossKind::Huber
                                     : vc::LossKind::Cauchy;
    l.c2 = scale_px * scale_px;
    return l;
}

void write_pose(const vc::CameraPose &P, double *R, double *t) {
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) R[3 * r + c] = P.R(r, c);
    for (int k = 0; k < 3; ++k) t[k] = P.t[k];
}

// Inliers of pose at threshold² th2 into t_inliers; returns the sum of squared errors.
double collect_inliers(const vc::PoseProblem &p, const vc::CameraPose &P, double th2) {
    auto &inliers = t_inliers;  // bound once (TLS wrapper)
    inliers.clear();
    double sse = 0;
    for (int i = 0; i < p.n; ++i) {
        double r2;
        if (!p.squared_error(P, i, &r2)) continue;
        if (r2 < th2) {
            inliers.push_back(i);
            sse += r2;
        }
    }
    return sse;
}

}  // namespace

extern "C" vc_ransac_options vc_ransac_default_options(void) {
    return vc_ransac_options{4.0, 0.999, 10000, 0, 0x5EED, 1, 1, VC_LOSS_HUBER, 4.0};
}

extern "C" vc_status vc_pose_estimate(const vc_pinhole *camera, const double *points2d,
                                      const double *points3d, int32_t n,
                                      const vc_ransac_options *options, vc_pose_result *result,
                                      uint8_t *inlier_mask) {
    return vc_pose_estimate_weighted(camera, points2d, points3d, nullptr, n, options, result, inlier_mask);
}

namespace {

// Admits the models outside a region around an excluded pose (see vc_pose_exclusion).
struct OutsideRegion {
    const vc_pose_exclusion *ex = nullptr;
    Eigen::Matrix3d R;
    Eigen::Vector3d centre;
    double cos_half_angle = 1;

    explicit OutsideRegion(const vc_pose_exclusion *e) : ex(e) {
        if (!e) return;
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) R(r, c) = e->R_cw[3 * r + c];
        centre = -R.transpose() * Eigen::Vector3d(e->t_cw[0], e->t_cw[1], e->t_cw[2]);
        cos_half_angle = std::cos(e->max_rotation_deg * M_PI / 360);
    }
    bool operator()(const vc::CameraPose &m) const {
        if (!ex) return true;
        // Rotation angle θ between the two: cos(θ/2) = |q_w| of R·R_exᵀ, i.e. √(1 + trace)/2.
        const double tr = (m.R * R.transpose()).trace();
        const bool near_rotation = std::sqrt(std::max(0.0, 1 + tr)) / 2 >= cos_half_angle;
        const bool near_centre = (-m.R.transpose() * m.t - centre).norm() <= ex->max_centre_distance;
        return !(near_rotation && near_centre);
    }
};

template <class SampleSolver>
vc::RansacStats run_ransac(const vc::PoseProblem &prob, const SampleSolver &solver,
                           const vc_ransac_options &o, vc::CameraPose *best, const OutsideRegion &admit) {
    vc::AbsolutePoseEstimator<SampleSolver> est(prob, solver, o.threshold_px, &t_lo_scratch);
    vc::RansacParams rp;
    rp.max_iterations = o.max_iterations;
    rp.min_iterations = o.min_iterations;
    rp.confidence = o.confidence;
    rp.local_optimization = o.local_optimization != 0 || admit.ex;
    rp.seed = o.seed;
    return admit.ex ? vc::lo_ransac(est, rp, best, admit) : vc::lo_ransac(est, rp, best);
}

// Shared by the P3P and gravity-aware entry points: down_cam NULL selects P3P; exclusion
// non-NULL searches for the best pose outside its region.
vc_status estimate_pose(const vc_pinhole *camera, const double *points2d, const double *points3d,
                        const double *sigmas, int32_t n, const double *down_cam, double gravity_sigma_deg,
                        const vc_ransac_options *options, vc_pose_result *result, uint8_t *inlier_mask,
                        const vc_pose_exclusion *exclusion = nullptr) {
    if (!options || !result) return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument");
    *result = vc_pose_result{};
    const vc_ransac_options &o = *options;
    if (!(o.threshold_px > 0) || !(o.confidence > 0 && o.confidence < 1) ||
        o.max_iterations < 1 || o.min_iterations < 0 ||
        (o.final_refinement && !(o.loss_scale_px > 0)))
        return vc::fail(VC_ERR_INVALID_ARGUMENT,
                        "need threshold > 0, 0 < confidence < 1, max_iterations >= 1, loss scale > 0");
    Eigen::Vector3d down;
    if (down_cam) {
        down = Eigen::Vector3d(down_cam[0], down_cam[1], down_cam[2]);
        if (!down.allFinite() || !(down.norm() > 0))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "gravity must be a finite nonzero vector");
        if (!(gravity_sigma_deg > 0) || !std::isfinite(gravity_sigma_deg))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "gravity sigma must be positive and finite");
    }
    if (exclusion && (!finite_all(exclusion->R_cw, 9) || !finite_all(exclusion->t_cw, 3) ||
                      !(exclusion->max_rotation_deg >= 0) || !(exclusion->max_centre_distance >= 0) ||
                      !std::isfinite(exclusion->max_rotation_deg) || !std::isfinite(exclusion->max_centre_distance)))
        return vc::fail(VC_ERR_INVALID_ARGUMENT, "exclusion needs a finite pose and finite bounds >= 0");
    vc::PoseProblem prob;
    vc_status s = load(camera, points2d, points3d, n, &prob, true, &o.seed, sigmas);
    if (s != VC_OK) return s;
    if (inlier_mask)
        for (int i = 0; i < n; ++i) inlier_mask[i] = 0;
    if (n == 0) return vc::fail(VC_ERR_EMPTY_INPUT, "no correspondences");
    if (n < 4) return vc::fail(VC_ERR_NO_SOLUTION, "fewer than 4 correspondences");

    // Bound once: every use of a thread_local by name calls its TLS wrapper.
    auto &bearing = t_bearing;
    const auto &inliers = t_inliers, &order = t_order;
    t_lo_scratch.reserve(size_t(n));
    vc::CameraPose best;
    vc::RansacStats st;
    if (down_cam) {
        prob.up_cam = -down.normalized();
        prob.gravity_weight = 180 / (M_PI * gravity_sigma_deg);
        const Eigen::Matrix3d Rg = vc::gravity_alignment(down);
        for (int i = 0; i < n; ++i) bearing[size_t(i)] = Rg * bearing[size_t(i)];
        st = run_ransac(prob, vc::UprightP2PSampleSolver{bearing.data(), prob.X, Rg}, o, &best,
                        OutsideRegion(exclusion));
    } else {
        st = run_ransac(prob, vc::P3PSampleSolver{bearing.data(), prob.X}, o, &best, OutsideRegion(exclusion));
    }
    result->iterations = st.iterations;
    result->refinements = st.refinements;
    // A minimal pose always explains its own sample: evidence starts at 4 inliers.
    if (st.num_inliers < 4) return vc::fail(VC_ERR_NO_SOLUTION, "no pose with 4 or more inliers");

    const double th2 = o.threshold_px * o.threshold_px;
    if (o.final_refinement) {
        collect_inliers(prob, best, th2);
        vc::LMOptions lo;
        lo.max_iterations = 30;
        lo.loss = make_loss(o.loss, o.loss_scale_px);
        // Stop when a step lowers the cost by < 1e-7: far below the noise level, and
        // it saves the slow tail of IRLS convergence.
        lo.relative_decrease_tol = 1e-7;
        vc::CameraPose refined = best;
        vc::refine_pose_lm(prob, &refined, lo, inliers.data(), int(inliers.size()));
        // A rival that the refinement pulls into the excluded region was that optimum.
        if (exclusion && !OutsideRegion(exclusion)(refined))
            return vc::fail(VC_ERR_NO_SOLUTION, "no local optimum outside the excluded region");
        best = refined;
    }
    const double sse = collect_inliers(prob, best, th2);
    const int ni = int(inliers.size());
    if (ni < 4) return vc::fail(VC_ERR_NO_SOLUTION, "refined pose has fewer than 4 inliers");
    if (inlier_mask)
        for (int k : inliers) inlier_mask[order[size_t(k)]] = 1;
    write_pose(best, result->R_cw, result->t_cw);
    vc::CameraPose inv;
    inv.R = best.R.transpose();
    inv.t = -inv.R * best.t;
    write_pose(inv, result->R_wc, result->t_wc);
    result->num_inliers = ni;
    result->rms_px = std::sqrt(sse / ni);
    return VC_OK;
}

}  // namespace

extern "C" vc_status vc_pose_estimate_weighted(const vc_pinhole *camera, const double *points2d,
                                               const double *points3d, const double *sigmas, int32_t n,
                                               const vc_ransac_options *options, vc_pose_result *result,
                                               uint8_t *inlier_mask) {
    return vc::guarded([&] {
        return estimate_pose(camera, points2d, points3d, sigmas, n, nullptr, 0, options, result, inlier_mask);
    });
}

extern "C" vc_status vc_pose_estimate_gravity(const vc_pinhole *camera, const double *points2d,
                                              const double *points3d, const double *sigmas, int32_t n,
                                              const double *down_cam, double gravity_sigma_deg,
                                              const vc_ransac_options *options, vc_pose_result *result,
                                              uint8_t *inlier_mask) {
    return vc::guarded([&]() -> vc_status {
        if (!down_cam) return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL gravity");
        return estimate_pose(camera, points2d, points3d, sigmas, n, down_cam, gravity_sigma_deg, options, result,
                             inlier_mask);
    });
}

extern "C" vc_status vc_pose_estimate_rival(const vc_pinhole *camera, const double *points2d,
                                            const double *points3d, const double *sigmas, int32_t n,
                                            const double *down_cam, double gravity_sigma_deg,
                                            const vc_pose_exclusion *exclusion, const vc_ransac_options *options,
                                            vc_pose_result *result, uint8_t *inlier_mask) {
    return vc::guarded([&]() -> vc_status {
        if (!exclusion) return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL exclusion");
        return estimate_pose(camera, points2d, points3d, sigmas, n, down_cam, gravity_sigma_deg, options, result,
                             inlier_mask, exclusion);
    });
}

extern "C" vc_status vc_pose_p3p(const double *bearings, const double *points3d, double *R_cw,
                                 double *t_cw, int32_t *count) {
    return vc::guarded([&]() -> vc_status {
        if (count) *count = 0;
        if (!bearings || !points3d || !R_cw || !t_cw || !count)
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument");
        if (!finite_all(bearings, 9) || !finite_all(points3d, 9))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "inputs must be finite");
        Eigen::Vector3d x[3], X[3];
        for (int i = 0; i < 3; ++i) {
            x[i] = Eigen::Vector3d(bearings[3 * i], bearings[3 * i + 1], bearings[3 * i + 2]);
            X[i] = Eigen::Vector3d(points3d[3 * i], points3d[3 * i + 1], points3d[3 * i + 2]);
        }
        vc::CameraPose sols[4];
        const int k = vc::p3p_lambda_twist(x, X, sols);
        for (int i = 0; i < k; ++i) write_pose(sols[i], R_cw + 9 * i, t_cw + 3 * i);
        *count = k;
        return VC_OK;
    });
}

extern "C" vc_status vc_pose_p2p_upright(const double *bearings, const double *points3d,
                                        const double *down_cam, double *R_cw, double *t_cw,
                                        int32_t *count) {
    return vc::guarded([&]() -> vc_status {
        if (count) *count = 0;
        if (!bearings || !points3d || !down_cam || !R_cw || !t_cw || !count)
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument");
        if (!finite_all(bearings, 6) || !finite_all(points3d, 6) || !finite_all(down_cam, 3))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "inputs must be finite");
        const Eigen::Vector3d down(down_cam[0], down_cam[1], down_cam[2]);
        if (!(down.norm() > 0)) return vc::fail(VC_ERR_INVALID_ARGUMENT, "gravity must be nonzero");
        const Eigen::Matrix3d Rg = vc::gravity_alignment(down);
        Eigen::Vector3d x[2], X[2];
        for (int i = 0; i < 2; ++i) {
            x[i] = Rg * Eigen::Vector3d(bearings[3 * i], bearings[3 * i + 1], bearings[3 * i + 2]);
            X[i] = Eigen::Vector3d(points3d[3 * i], points3d[3 * i + 1], points3d[3 * i + 2]);
        }
        const int sample[2] = {0, 1};
        vc::CameraPose sols[2];
        const int k = vc::UprightP2PSampleSolver{x, X, Rg}.solve(sample, sols);
        for (int i = 0; i < k; ++i) write_pose(sols[i], R_cw + 9 * i, t_cw + 3 * i);
        *count = k;
        return VC_OK;
    });
}

extern "C" vc_status vc_pose_refine(const vc_pinhole *camera, const double *points2d,
                                    const double *points3d, int32_t n,
                                    const vc_refine_options *options, double *R_cw,
                                    double *t_cw, double *rms_px, int32_t *iterations) {
    return vc::guarded([&]() -> vc_status {
        if (!options || !R_cw || !t_cw) return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument");
        if (options->max_iterations < 1 || !(options->loss_scale_px > 0))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "need max_iterations >= 1 and loss scale > 0");
        if (!finite_all(R_cw, 9) || !finite_all(t_cw, 3))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "initial pose must be finite");
        vc::PoseProblem prob;
        vc_status s = load(camera, points2d, points3d, n, &prob, false);
        if (s != VC_OK) return s;
        if (n < 3) return vc::fail(n == 0 ? VC_ERR_EMPTY_INPUT : VC_ERR_NO_SOLUTION,
                                   "need at least 3 correspondences");
        vc::CameraPose P;
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) P.R(r, c) = R_cw[3 * r + c];
        P.t = Eigen::Vector3d(t_cw[0], t_cw[1], t_cw[2]);
        // Project the start onto SO(3) so a slightly non-orthogonal input cannot poison LM.
        Eigen::JacobiSVD<Eigen::Matrix3d> svd(P.R, Eigen::ComputeFullU | Eigen::ComputeFullV);
        P.R = svd.matrixU() * svd.matrixV().transpose();
        if (P.R.determinant() < 0) return vc::fail(VC_ERR_INVALID_ARGUMENT, "R_cw is not a rotation");
        vc::LMOptions lo;
        lo.max_iterations = options->max_iterations;
        lo.loss = make_loss(options->loss, options->loss_scale_px);
        const vc::LMReport rep = vc::refine_pose_lm(prob, &P, lo);
        write_pose(P, R_cw, t_cw);
        if (iterations) *iterations = rep.iterations;
        if (rms_px) {
            vc::RobustLoss ls;
            ls.kind = vc::LossKind::Trivial;
            *rms_px = std::sqrt(vc::pose_cost(prob, P, ls) / n);
        }
        return VC_OK;
    });
}

extern "C" vc_status vc_pose_covariance(const vc_pinhole *camera, const double *points2d, const double *points3d,
                                        const double *sigmas, const double *point_covariances, const int32_t *groups,
                                        int32_t n, const double *R_cw, const double *t_cw, const double *down_cam,
                                        double gravity_sigma_deg, const double *intrinsics_sigma,
                                        vc_pose_uncertainty *out) {
    return vc::guarded([&]() -> vc_status {
        if (!out || !R_cw || !t_cw) return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument");
        if (!finite_all(R_cw, 9) || !finite_all(t_cw, 3))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "pose must be finite");
        if (point_covariances && n > 0) {
            if (!finite_all(point_covariances, size_t(n) * 6))
                return vc::fail(VC_ERR_INVALID_ARGUMENT, "point covariances must be finite");
            for (int i = 0; i < n; ++i) {
                const double *c = point_covariances + 6 * size_t(i);
                if (c[0] < 0 || c[3] < 0 || c[5] < 0)
                    return vc::fail(VC_ERR_INVALID_ARGUMENT, "point covariances must have a non-negative diagonal");
            }
        }
        if (intrinsics_sigma && (!finite_all(intrinsics_sigma, 4) || intrinsics_sigma[0] < 0 || intrinsics_sigma[1] < 0 ||
                                 intrinsics_sigma[2] < 0 || intrinsics_sigma[3] < 0))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "intrinsics sigmas must be finite and >= 0");
        vc::PoseProblem prob;
        vc_status s = load(camera, points2d, points3d, n, &prob, false, nullptr, sigmas);
        if (s != VC_OK) return s;
        if (down_cam) {
            const Eigen::Vector3d down(down_cam[0], down_cam[1], down_cam[2]);
            if (!down.allFinite() || !(down.norm() > 0) || !(gravity_sigma_deg > 0) || !std::isfinite(gravity_sigma_deg))
                return vc::fail(VC_ERR_INVALID_ARGUMENT, "gravity must be finite and nonzero, its sigma positive");
            prob.up_cam = -down.normalized();
            prob.gravity_weight = 180 / (M_PI * gravity_sigma_deg);
        }
        vc::CameraPose P;
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) P.R(r, c) = R_cw[3 * r + c];
        P.t = Eigen::Vector3d(t_cw[0], t_cw[1], t_cw[2]);
        const vc::PoseCovariance cov = vc::pose_covariance(prob, P, point_covariances, groups, intrinsics_sigma);
        for (int r = 0; r < 6; ++r)
            for (int c = 0; c < 6; ++c) out->covariance[6 * r + c] = cov.pose(r, c);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) out->centre_covariance[3 * r + c] = cov.centre(r, c);
        out->rotation_sigma_rad = cov.rotation_sigma;
        out->centre_sigma = cov.centre_sigma;
        out->residual_scale = cov.residual_scale;
        out->jackknife_rotation_sigma_rad = cov.jackknife_rotation_sigma;
        out->jackknife_centre_sigma = cov.jackknife_centre_sigma;
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 3; ++c) out->refined_R_cw[3 * r + c] = cov.refined.R(r, c);
            out->refined_t_cw[r] = cov.refined.t(r);
        }
        out->rotation_bound95_rad = cov.rotation_bound95;
        out->centre_bound95 = cov.centre_bound95;
        out->jackknife_groups = cov.jackknife_groups;
        out->determined = cov.determined ? 1 : 0;
        return VC_OK;
    });
}
