// The absolute-pose estimator that lo_ransac drives: a minimal solver on minimal samples
// (P3P, or upright P2P when gravity is known), MSAC on pixel reprojection error (with SPRT
// pre-emption), and as local optimisation a few rounds of free 6-DoF least squares on the
// current inliers.
#pragma once
#include "lo_ransac.hpp"
#include "p2p_upright.hpp"
#include "p3p_lambda_twist.hpp"
#include "pose_refine_lm.hpp"
#include <vector>

namespace vc {

// Minimal samples of three correspondences, Lambda Twist P3P.
struct P3PSampleSolver {
    static constexpr int kSampleSize = 3;
    static constexpr int kMaxModels = 4;
    const Eigen::Vector3d *bearings;  // camera rays
    const Eigen::Vector3d *X;

    int solve(const int *sample, CameraPose *models) const {
        const Eigen::Vector3d x[3] = {bearings[sample[0]], bearings[sample[1]], bearings[sample[2]]};
        const Eigen::Vector3d P[3] = {X[sample[0]], X[sample[1]], X[sample[2]]};
        return p3p_lambda_twist(x, P, models);
    }
};

// Minimal samples of two correspondences with known gravity, upright P2P.
struct UprightP2PSampleSolver {
    static constexpr int kSampleSize = 2;
    static constexpr int kMaxModels = 2;
    const Eigen::Vector3d *upright_bearings;  // R_gravity · camera ray
    const Eigen::Vector3d *X;
    Eigen::Matrix3d R_gravity;                // camera → upright frame

    int solve(const int *sample, CameraPose *models) const {
        const Eigen::Vector3d x[2] = {upright_bearings[sample[0]], upright_bearings[sample[1]]};
        const Eigen::Vector3d P[2] = {X[sample[0]], X[sample[1]]};
        const int k = p2p_upright(x, P, models);
        for (int i = 0; i < k; ++i) {  // upright frame → camera frame
            models[i].R = R_gravity.transpose() * models[i].R;
            models[i].t = R_gravity.transpose() * models[i].t;
        }
        return k;
    }
};

template <class SampleSolver>
class AbsolutePoseEstimator {
public:
    using Model = CameraPose;
    static constexpr int kSampleSize = SampleSolver::kSampleSize;
    static constexpr int kMaxModels = SampleSolver::kMaxModels;

    // threshold in pixels. `scratch` must have capacity for p.n indices (reserved by the
    // caller, so refine() never allocates).
    AbsolutePoseEstimator(const PoseProblem &p, const SampleSolver &solver, double threshold_px,
                          std::vector<int> *scratch)
        : p_(p), solver_(solver), th2_(threshold_px * threshold_px), scratch_(scratch) {}

    int num_data() const { return p_.n; }

    int solve(const int *sample, Model *models) const { return solver_.solve(sample, models); }

    double score(const Model &m, const ScoreLimit &lim, int *inliers) const {
        double s = 0, lr = 0;
        int k = 0;
        const double fx = p_.fx, fy = p_.fy;
        for (int i = 0; i < p_.n; ++i) {
            const Eigen::Vector3d Z = m.R * p_.X[i] + m.t;
            double e2 = th2_;
            if (Z.z() > 0) {
                const double iz = 1 / Z.z(), wi = p_.weight(i);
                const double rx = wi * fx * (Z.x() * iz - p_.xn[i].x());
                const double ry = wi * fy * (Z.y() * iz - p_.xn[i].y());
                const double r2 = rx * rx + ry * ry;
                if (r2 < th2_) {
                    e2 = r2;
                    ++k;
                }
            }
            if (lim.sprt) {
                lr += e2 < th2_ ? lim.log_consistent : lim.log_inconsistent;
                if (lr > lim.log_threshold) {
                    *inliers = k;
                    return std::numeric_limits<double>::infinity();
                }
            }
            s += e2;
            if (s > lim.bail_out) break;  // cannot beat the best model any more
        }
        *inliers = k;
        return s;
    }

    void refine(Model *m) const {
        LMOptions o;
        o.max_iterations = 4;
        o.loss.kind = LossKind::Trivial;
        o.relative_decrease_tol = 1e-6;
        for (int round = 0; round < 2; ++round) {
            collect_inliers(*m);
            if (scratch_->size() < 4) return;
            refine_pose_lm(p_, m, o, scratch_->data(), int(scratch_->size()));
        }
    }

private:
    void collect_inliers(const Model &m) const {
        scratch_->clear();
        for (int i = 0; i < p_.n; ++i) {
            double r2;
            if (p_.squared_error(m, i, &r2) && r2 < th2_) scratch_->push_back(i);
        }
    }

    PoseProblem p_;
    SampleSolver solver_;
    double th2_;
    std::vector<int> *scratch_;
};

}  // namespace vc
