// The absolute-pose estimator that lo_ransac drives: P3P on minimal samples, MSAC on
// pixel reprojection error, LM with a truncated loss as local optimisation.
#pragma once
#include "p3p_lambda_twist.hpp"
#include "pose_refine_lm.hpp"

namespace vc {

class AbsolutePoseEstimator {
public:
    using Model = CameraPose;
    static constexpr int kSampleSize = 3;
    static constexpr int kMaxModels = 4;

    // bearings[i] = (xn[i], 1) normalised; threshold in pixels.
    AbsolutePoseEstimator(const PoseProblem &p, const Eigen::Vector3d *bearings, double threshold_px)
        : p_(p), bearings_(bearings), th2_(threshold_px * threshold_px) {}

    int num_data() const { return p_.n; }

    int solve(const int *sample, Model *models) const {
        const Eigen::Vector3d x[3] = {bearings_[sample[0]], bearings_[sample[1]], bearings_[sample[2]]};
        const Eigen::Vector3d X[3] = {p_.X[sample[0]], p_.X[sample[1]], p_.X[sample[2]]};
        return p3p_lambda_twist(x, X, models);
    }

    double score(const Model &m, double bail_out, int *inliers) const {
        double s = 0;
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
            s += e2;
            if (s > bail_out) break;  // cannot beat the best model any more
        }
        *inliers = k;
        return s;
    }

    void refine(Model *m) const {
        LMOptions o;
        o.max_iterations = 10;
        o.loss.kind = LossKind::Truncated;
        o.loss.c2 = th2_;
        refine_pose_lm(p_, m, o);
    }

private:
    PoseProblem p_;
    const Eigen::Vector3d *bearings_;
    double th2_;
};

}  // namespace vc
