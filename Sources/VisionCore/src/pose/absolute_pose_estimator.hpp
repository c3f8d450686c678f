// The absolute-pose estimator that lo_ransac drives: P3P on minimal samples, MSAC on
// pixel reprojection error (with SPRT pre-emption), and as local optimisation a few
// rounds of least squares on the current inliers.
#pragma once
#include "lo_ransac.hpp"
#include "p3p_lambda_twist.hpp"
#include "pose_refine_lm.hpp"
#include <vector>

namespace vc {

class AbsolutePoseEstimator {
public:
    using Model = CameraPose;
    static constexpr int kSampleSize = 3;
    static constexpr int kMaxModels = 4;

    // bearings[i] = (xn[i], 1) normalised; threshold in pixels. `scratch` must have
    // capacity for p.n indices (reserved by the caller, so refine() never allocates).
    AbsolutePoseEstimator(const PoseProblem &p, const Eigen::Vector3d *bearings, double threshold_px,
                          std::vector<int> *scratch)
        : p_(p), bearings_(bearings), th2_(threshold_px * threshold_px), scratch_(scratch) {}

    int num_data() const { return p_.n; }

    int solve(const int *sample, Model *models) const {
        const Eigen::Vector3d x[3] = {bearings_[sample[0]], bearings_[sample[1]], bearings_[sample[2]]};
        const Eigen::Vector3d X[3] = {p_.X[sample[0]], p_.X[sample[1]], p_.X[sample[2]]};
        return p3p_lambda_twist(x, X, models);
    }

    double score(const Model &m, const ScoreLimit &lim, int *inliers) const {
        double s = 0, lr = 0;
        int k = 0;
        const double fx = p_.fx, fy = p_.fy;
        for (int i = 0; i < p_.n; ++i) {
            const Eigen::Vector3d Z = m.R * p_.X[i] + m.t;
            double e2 = th2_;
            if (Z.z() > 0) {
                const double iz = 1 / Z.z();
                const double rx = fx * (Z.x() * iz - p_.xn[i].x());
                const double ry = fy * (Z.y() * iz - p_.xn[i].y());
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
            const Eigen::Vector3d Z = m.R * p_.X[i] + m.t;
            if (Z.z() <= 0) continue;
            const double rx = p_.fx * (Z.x() / Z.z() - p_.xn[i].x());
            const double ry = p_.fy * (Z.y() / Z.z() - p_.xn[i].y());
            if (rx * rx + ry * ry < th2_) scratch_->push_back(i);
        }
    }

    PoseProblem p_;
    const Eigen::Vector3d *bearings_;
    double th2_;
    std::vector<int> *scratch_;
};

}  // namespace vc
