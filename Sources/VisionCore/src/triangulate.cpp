// Multi-view triangulation: DLT in normalised coordinates, Gauss–Newton on pixel error.
#include "vc_triangulate.h"
#include "vc_guarded.hpp"
#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>
#include <vector>

namespace {

struct View {
    Eigen::Matrix3d R;
    Eigen::Vector3d t;
    double fx, fy, cx, cy;
};

View load_view(const vc_view &v) {
    View o;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) o.R(r, c) = v.R_cw[3 * r + c];
    o.t = Eigen::Vector3d(v.t_cw[0], v.t_cw[1], v.t_cw[2]);
    o.fx = v.camera.fx; o.fy = v.camera.fy; o.cx = v.camera.cx; o.cy = v.camera.cy;
    return o;
}

bool valid_view(const vc_view &v) {
    for (double d : v.R_cw) if (!std::isfinite(d)) return false;
    for (double d : v.t_cw) if (!std::isfinite(d)) return false;
    return v.camera.fx > 0 && v.camera.fy > 0 && std::isfinite(v.camera.cx) && std::isfinite(v.camera.cy);
}

// Views are passed as an accessor so the pair and multi-view entry points share the code.
template <class ViewAt>
vc_triangulated_point triangulate(int n, ViewAt view, const double *px_at[], const vc_triangulation_options &o,
                                  double *errors) {
    vc_triangulated_point out{};
    out.status = VC_TRI_DEGENERATE;
    // DLT: rows x·P₃ − P₁ and y·P₃ − P₂ per view, in normalised coordinates.
    Eigen::Matrix4d AtA = Eigen::Matrix4d::Zero();
    for (int k = 0; k < n; ++k) {
        const View &v = view(k);
        const double xn = (px_at[k][0] - v.cx) / v.fx, yn = (px_at[k][1] - v.cy) / v.fy;
        Eigen::Matrix<double, 3, 4> P;
        P.leftCols<3>() = v.R;
        P.col(3) = v.t;
        Eigen::Matrix<double, 1, 4> r1 = xn * P.row(2) - P.row(0);
        Eigen::Matrix<double, 1, 4> r2 = yn * P.row(2) - P.row(1);
        r1.normalize();
        r2.normalize();
        AtA.noalias() += r1.transpose() * r1 + r2.transpose() * r2;
    }
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix4d> es(AtA);
    const Eigen::Vector4d h = es.eigenvectors().col(0);
    if (!h.allFinite() || std::abs(h[3]) < 1e-12 * h.head<3>().norm()) return out;
    Eigen::Vector3d X = h.head<3>() / h[3];

    if (o.refine) {
        for (int it = 0; it < 10; ++it) {
            Eigen::Matrix3d H = Eigen::Matrix3d::Zero();
            Eigen::Vector3d g = Eigen::Vector3d::Zero();
            for (int k = 0; k < n; ++k) {
                const View &v = view(k);
                const Eigen::Vector3d Z = v.R * X + v.t;
                if (Z.z() <= 1e-12) continue;
                const double iz = 1 / Z.z();
                const double rx = v.fx * Z.x() * iz + v.cx - px_at[k][0];
                const double ry = v.fy * Z.y() * iz + v.cy - px_at[k][1];
                Eigen::Matrix<double, 2, 3> dr;
                dr << v.fx * iz, 0, -v.fx * Z.x() * iz * iz, 0, v.fy * iz, -v.fy * Z.y() * iz * iz;
                const Eigen::Matrix<double, 2, 3> J = dr * v.R;
                H.noalias() += J.transpose() * J;
                g.noalias() += J.transpose() * Eigen::Vector2d(rx, ry);
            }
            Eigen::FullPivLU<Eigen::Matrix3d> lu(H);
            if (!lu.isInvertible()) break;
            const Eigen::Vector3d step = -lu.solve(g);
            X += step;
            if (step.norm() < 1e-12 * (1 + X.norm())) break;
        }
    }
    if (!X.allFinite()) return out;
    out.X[0] = X.x(); out.X[1] = X.y(); out.X[2] = X.z();

    bool behind = false;
    double maxe = 0, sume = 0, max_angle = 0;
    for (int k = 0; k < n; ++k) {
        const View &v = view(k);
        const Eigen::Vector3d Z = v.R * X + v.t;
        double e = INFINITY;
        if (Z.z() <= 0) behind = true;
        else e = std::hypot(v.fx * Z.x() / Z.z() + v.cx - px_at[k][0], v.fy * Z.y() / Z.z() + v.cy - px_at[k][1]);
        if (errors) errors[k] = e;
        maxe = std::max(maxe, e);
        sume += e;
        // Ray from this camera centre to X in world coordinates is R_cwᵀ Z.
        const Eigen::Vector3d rk = (v.R.transpose() * Z).normalized();
        for (int m = 0; m < k; ++m) {
            const View &w = view(m);
            const Eigen::Vector3d rm = (w.R.transpose() * (w.R * X + w.t)).normalized();
            max_angle = std::max(max_angle, std::acos(std::max(-1.0, std::min(1.0, rk.dot(rm)))));
        }
    }
    out.parallax_deg = max_angle * 180 / M_PI;
    out.max_error_px = maxe;
    out.mean_error_px = sume / n;
    if (behind) out.status = VC_TRI_BEHIND_CAMERA;
    else if (out.parallax_deg < o.min_parallax_deg) out.status = VC_TRI_LOW_PARALLAX;
    else if (maxe > o.max_error_px) out.status = VC_TRI_HIGH_ERROR;
    else out.status = VC_TRI_OK;
    return out;
}

}  // namespace

extern "C" vc_status vc_triangulate(const vc_view *views, const double *pixels, int32_t n_views,
                                    const vc_triangulation_options *options,
                                    vc_triangulated_point *out, double *errors_px) {
    return vc::guarded([&]() -> vc_status {
        if (!views || !pixels || !options || !out) return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument");
        if (n_views < 2 || n_views > 100000) return vc::fail(VC_ERR_INVALID_ARGUMENT, "need 2 or more views");
        std::vector<View> vs(static_cast<size_t>(n_views));
        std::vector<const double *> px(static_cast<size_t>(n_views));
        for (int k = 0; k < n_views; ++k) {
            if (!valid_view(views[k])) return vc::fail(VC_ERR_INVALID_ARGUMENT, "view is not finite or has bad focal lengths");
            vs[size_t(k)] = load_view(views[k]);
            px[size_t(k)] = pixels + 2 * k;
        }
        *out = triangulate(n_views, [&](int k) -> const View & { return vs[size_t(k)]; }, px.data(),
                           *options, errors_px);
        return VC_OK;
    });
}

extern "C" vc_status vc_triangulate_pairs(const vc_view *a, const vc_view *b, const double *pixels_a,
                                          const double *pixels_b, int32_t n,
                                          const vc_triangulation_options *options,
                                          vc_triangulated_point *out) {
    return vc::guarded([&]() -> vc_status {
        if (!a || !b || !options || n < 0 || (n > 0 && (!pixels_a || !pixels_b || !out)))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument or negative count");
        if (!valid_view(*a) || !valid_view(*b))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "view is not finite or has bad focal lengths");
        const View va = load_view(*a), vb = load_view(*b);
        for (int i = 0; i < n; ++i) {
            const double *px[2] = {pixels_a + 2 * i, pixels_b + 2 * i};
            out[i] = triangulate(2, [&](int k) -> const View & { return k == 0 ? va : vb; }, px,
                                 *options, nullptr);
        }
        return VC_OK;
    });
}
