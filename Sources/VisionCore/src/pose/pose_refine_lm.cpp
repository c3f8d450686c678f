#include "pose_refine_lm.hpp"
#include <Eigen/Cholesky>
#include <vector>

namespace vc {
namespace {

constexpr double kBehindPenaltyS = 1e6;  // (1000 px)²: a point behind the camera

template <class F>
inline void for_each_index(int n, const int *subset, int subset_n, F &&f) {
    if (subset) {
        for (int k = 0; k < subset_n; ++k) f(subset[k]);
    } else {
        for (int i = 0; i < n; ++i) f(i);
    }
}

// One correspondence seen from a pose: its world point rotated (RX), 1 / depth, its
// normalized projection and its weighted pixel residual.
struct Projection {
    double x, y, z, iz, u, v, rx, ry;
    bool in_front;
};

// Per-thread scratch: the projections of the pose whose cost was evaluated last, in the
// order of the correspondences used. The normal equations at an accepted step's pose read
// them instead of projecting every point a second time.
thread_local std::vector<Projection> t_projections;

inline void project(const PoseProblem &p, const CameraPose &pose, int i, Projection *q) {
    const Eigen::Vector3d RX = pose.R * p.X[i];
    const Eigen::Vector3d Z = RX + pose.t;
    q->in_front = !(Z.z() <= 1e-9);  // a NaN depth is costed (NaN), not penalised
    if (!q->in_front) return;
    const double iz = 1 / Z.z(), wi = p.weight(i);
    const double fx = wi * p.fx, fy = wi * p.fy;
    q->x = RX.x(); q->y = RX.y(); q->z = RX.z();
    q->iz = iz;
    q->u = Z.x() * iz;
    q->v = Z.y() * iz;
    q->rx = fx * (q->u - p.xn[i].x());
    q->ry = fy * (q->v - p.xn[i].y());
}

// The cost of `pose` under `loss` (pose_cost); with `keep`, each correspondence's
// projection is written there too, in the order of the correspondences used.
double cost_of(const PoseProblem &p, const CameraPose &pose, const RobustLoss &loss, const int *subset,
               int subset_n, Projection *keep) {
    double cost = 0;
    Projection local;
    for_each_index(p.n, subset, subset_n, [&](int i) {
        Projection *q = keep ? keep++ : &local;
        project(p, pose, i, q);
        cost += q->in_front ? loss.cost(q->rx * q->rx + q->ry * q->ry) : loss.cost(kBehindPenaltyS);
    });
    if (p.gravity_weight > 0) cost += (p.gravity_weight * (pose.R.col(1) - p.up_cam)).squaredNorm();
    return cost;
}

}  // namespace

double pose_cost(const PoseProblem &p, const CameraPose &pose, const RobustLoss &loss,
                 const int *subset, int subset_n) {
    return cost_of(p, pose, loss, subset, subset_n, nullptr);
}

LMReport refine_pose_lm(const PoseProblem &p, CameraPose *pose, const LMOptions &opt,
                        const int *subset, int subset_n) {
    LMReport rep;
    t_projections.resize(size_t(subset ? subset_n : p.n));
    double cost = cost_of(p, *pose, opt.loss, subset, subset_n, t_projections.data());
    rep.initial_cost = rep.final_cost = cost;
    if (cost == 0) return rep;
    double lambda = 1e-4;
    using Mat6 = Eigen::Matrix<double, 6, 6>;
    using Vec6 = Eigen::Matrix<double, 6, 1>;
    for (int iter = 0; iter < opt.max_iterations; ++iter) {
        // Normal equations accumulated in closed form, upper triangle only: the 2×6
        // Jacobian of a point has two known zeros and the 6×6 product is symmetric, which
        // halves the work of a generic fixed-size product in this, the solver's inner loop.
        // The projections at *pose are those of its cost (the last one evaluated: the initial
        // pose's, or the step just accepted).
        double h[21] = {}, gv[6] = {};
        const Projection *q = t_projections.data();
        for_each_index(p.n, subset, subset_n, [&](int i) {
            const Projection &P = *q++;
            if (!P.in_front) return;
            const double iz = P.iz, wi = p.weight(i);
            const double fx = wi * p.fx, fy = wi * p.fy;
            const double u = P.u, v = P.v;
            const double rx = P.rx, ry = P.ry;
            const double w = opt.loss.weight(rx * rx + ry * ry);
            if (w == 0) return;
            // dr/dZ = [[a, 0, b], [0, c, d]] times dZ/d(ω, δ) = [−[RX]× | I].
            const double a = fx * iz, b = -fx * u * iz, c = fy * iz, d = -fy * v * iz;
            const double x = P.x, y = P.y, z = P.z;
            // Rows j1 = (j1[0..2], a, 0, b), j2 = (j2[0..2], 0, c, d). Their two zeros are
            // left out of the products: a zero term leaves a finite sum as it was (h and gv
            // start at +0, so no −0 arises either).
            const double j1[3] = {b * y, a * z - b * x, -a * y};
            const double j2[3] = {d * y - c * z, -d * x, c * x};
            int k = 0;
            for (int r = 0; r < 3; ++r) {
                const double w1 = w * j1[r], w2 = w * j2[r];
                for (int col = r; col < 3; ++col) h[k++] += w1 * j1[col] + w2 * j2[col];
                h[k++] += w1 * a;
                h[k++] += w2 * c;
                h[k++] += w1 * b + w2 * d;
                gv[r] += w1 * rx + w2 * ry;
            }
            const double wa = w * a, wc = w * c, wb = w * b, wd = w * d;
            h[k++] += wa * a;
            ++k;  // (3, 4): a · 0 + 0 · c
            h[k++] += wa * b;
            gv[3] += wa * rx;
            h[k++] += wc * c;
            h[k++] += wc * d;
            gv[4] += wc * ry;
            h[k] += wb * b + wd * d;
            gv[5] += wb * rx + wd * ry;
        });
        Mat6 H;
        Vec6 g;
        for (int r = 0, k = 0; r < 6; ++r) {
            for (int col = r; col < 6; ++col, ++k) H(r, col) = H(col, r) = h[k];
            g(r) = gv[r];
        }
        if (p.gravity_weight > 0) {
            // r = k (R e_y − up); under R ← exp(ω) R, d(R e_y)/dω = −[R e_y]×.
            const Eigen::Vector3d v = pose->R.col(1);
            const Eigen::Matrix3d Jw = -p.gravity_weight * skew(v);
            const Eigen::Vector3d r = p.gravity_weight * (v - p.up_cam);
            H.topLeftCorner<3, 3>().noalias() += Jw.transpose() * Jw;
            g.head<3>().noalias() += Jw.transpose() * r;
        }
        rep.iterations = iter + 1;
        // Try damped steps; a few rejections in a row mean we sit at the minimum.
        bool improved = false, converged = false;
        Vec6 step = Vec6::Zero();
        for (int attempt = 0; attempt < 6 && !improved; ++attempt) {
            Mat6 Hd = H;
            Hd.diagonal() += lambda * (H.diagonal().array() + 1e-9).matrix();
            step = -Hd.ldlt().solve(g);
            CameraPose cand;
            cand.R = exp_so3(step.head<3>()) * pose->R;
            cand.t = pose->t + step.tail<3>();
            // A rejected step's projections are overwritten by the next try's; the loop ends
            // at the first accepted one, so they always belong to *pose when read.
            const double c = cost_of(p, cand, opt.loss, subset, subset_n, t_projections.data());
            if (c < cost) {
                *pose = cand;
                // Noisy data: stop once a step buys almost nothing. Exact data keeps
                // improving by orders of magnitude until it reaches rounding level.
                converged = cost - c < opt.relative_decrease_tol * cost;
                cost = c;
                lambda = std::max(lambda * 0.1, 1e-12);
                improved = true;
            } else {
                lambda *= 10;
            }
        }
        if (!improved || converged) break;
        const double tscale = 1 + pose->t.norm();
        if (step.head<3>().norm() < opt.step_tol && step.tail<3>().norm() < opt.step_tol * tscale) break;
    }
    // Re-orthonormalise: repeated exp updates drift by rounding.
    Eigen::Quaterniond q(pose->R);
    pose->R = q.normalized().toRotationMatrix();
    rep.final_cost = cost;
    return rep;
}

}  // namespace vc
