// Rendering textured planes by per-plane perspective warps with an analytic z-buffer.
#include "vc_render.h"
#include "status_guard.hpp"
#include "render_internal.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <new>
#include <vector>

using namespace vc_render_detail;

namespace {

using Vec3 = std::array<double, 3>;
using Mat3 = std::array<double, 9>;  // row-major

Vec3 sub(const Vec3 &a, const Vec3 &b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

bool invert(const Mat3 &m, Mat3 &inv) {
    const double a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7], i = m[8];
    const double A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
    const double det = a * A + b * B + c * C;
    if (!std::isfinite(det) || std::abs(det) < 1e-14) return false;
    const double s = 1.0 / det;
    inv = {A * s, -(b * i - c * h) * s, (b * f - c * e) * s,
           B * s, (a * i - c * g) * s, -(a * f - c * d) * s,
           C * s, -(a * h - b * g) * s, (a * e - b * d) * s};
    return true;
}

Mat3 mul(const Mat3 &x, const Mat3 &y) {
    Mat3 r{};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r[3 * i + j] = x[3 * i] * y[j] + x[3 * i + 1] * y[3 + j] + x[3 * i + 2] * y[6 + j];
    return r;
}

// Bilinear sample of an RGB mip level at continuous texel position (x, y), texel centres at
// integers, clamped to the edge.
inline void bilinear(const cv::Mat &m, double x, double y, double out[3]) {
    const int w = m.cols, h = m.rows;
    x = std::min(std::max(x, 0.0), double(w - 1));
    y = std::min(std::max(y, 0.0), double(h - 1));
    const int x0 = int(x), y0 = int(y);
    const int x1 = std::min(x0 + 1, w - 1), y1 = std::min(y0 + 1, h - 1);
    const double fx = x - x0, fy = y - y0;
    const uint8_t *r0 = m.ptr<uint8_t>(y0), *r1 = m.ptr<uint8_t>(y1);
    for (int c = 0; c < 3; ++c) {
        const double top = r0[3 * x0 + c] + (r0[3 * x1 + c] - r0[3 * x0 + c]) * fx;
        const double bot = r1[3 * x0 + c] + (r1[3 * x1 + c] - r1[3 * x0 + c]) * fx;
        out[c] = top + (bot - top) * fy;
    }
}

// One plane prepared for a pose: image-to-texture homography and its screen bounds.
struct PreparedPlane {
    Mat3 Hinv;            // (u, v, 1) -> (s/z, t/z, 1/z), s,t in 0..1 over the quad
    int x0, y0, x1, y1;   // inclusive pixel bounds
    bool visible = false;
};

PreparedPlane prepare(const vc_render_camera &cam, const vc_render_pose &pose, const vc_render_plane &pl) {
    PreparedPlane out;
    Vec3 c[4];  // camera-frame corners BL, BR, TR, TL
    for (int k = 0; k < 4; ++k) {
        const double *X = pl.corners + 3 * k;
        for (int r = 0; r < 3; ++r)
            c[k][r] = pose.R_cw[3 * r] * X[0] + pose.R_cw[3 * r + 1] * X[1] + pose.R_cw[3 * r + 2] * X[2] + pose.t_cw[r];
    }
    // Clip the quad against z >= near (Sutherland-Hodgman) for its screen bounds only;
    // the per-pixel test below is exact.
    std::vector<Vec3> poly(c, c + 4), clipped;
    const double nz = cam.near_clip;
    for (size_t i = 0; i < poly.size(); ++i) {
        const Vec3 &p = poly[i], &q = poly[(i + 1) % poly.size()];
        const bool pin = p[2] >= nz, qin = q[2] >= nz;
        if (pin) clipped.push_back(p);
        if (pin != qin) {
            const double t = (nz - p[2]) / (q[2] - p[2]);
            clipped.push_back({p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), nz});
        }
    }
    if (clipped.size() < 3) return out;
    double u0 = 1e300, v0 = 1e300, u1 = -1e300, v1 = -1e300;
    for (const auto &p : clipped) {
        const double u = cam.fx * p[0] / p[2] + cam.cx, v = cam.fy * p[1] / p[2] + cam.cy;
        u0 = std::min(u0, u); u1 = std::max(u1, u); v0 = std::min(v0, v); v1 = std::max(v1, v);
    }
    out.x0 = std::max(0, int(std::floor(u0)) - 1);
    out.y0 = std::max(0, int(std::floor(v0)) - 1);
    out.x1 = std::min(cam.width - 1, int(std::ceil(u1)) + 1);
    out.y1 = std::min(cam.height - 1, int(std::ceil(v1)) + 1);
    if (out.x0 > out.x1 || out.y0 > out.y1) return out;
    // X = TL + s (TR - TL) + t (BL - TL) = M (s, t, 1); pixel ray K^-1 (u, v, 1) = X / z.
    const Vec3 eU = sub(c[2], c[3]), eV = sub(c[0], c[3]), P0 = c[3];
    const Mat3 M = {eU[0], eV[0], P0[0], eU[1], eV[1], P0[1], eU[2], eV[2], P0[2]};
    Mat3 Minv;
    if (!invert(M, Minv)) return out;  // seen exactly edge-on, or through the camera centre
    const Mat3 Kinv = {1 / cam.fx, 0, -cam.cx / cam.fx, 0, 1 / cam.fy, -cam.cy / cam.fy, 0, 0, 1};
    out.Hinv = mul(Minv, Kinv);
    out.visible = true;
    return out;
}

bool valid_inputs(const vc_render_camera *cam, const vc_render_pose *poses, int32_t n_poses,
                  const vc_render_plane *planes, int32_t n_planes, uint8_t *rgb_out, int32_t stride) {
    if (!cam || !poses || !rgb_out || n_poses < 1 || n_poses > 64 || n_planes < 0 || (n_planes > 0 && !planes))
        return false;
    if (cam->width < 1 || cam->height < 1 || cam->width > 8192 || cam->height > 8192) return false;
    if (!(cam->fx > 0 && cam->fy > 0 && std::isfinite(cam->fx) && std::isfinite(cam->fy) &&
          std::isfinite(cam->cx) && std::isfinite(cam->cy) && cam->near_clip > 0 && std::isfinite(cam->near_clip)))
        return false;
    if (stride < cam->width * 3) return false;
    for (int i = 0; i < n_poses; ++i) {
        for (double d : poses[i].R_cw) if (!std::isfinite(d)) return false;
        for (double d : poses[i].t_cw) if (!std::isfinite(d)) return false;
    }
    for (int i = 0; i < n_planes; ++i) {
        if (!planes[i].texture || planes[i].texture->levels.empty() || !std::isfinite(planes[i].shade)) return false;
        for (double d : planes[i].corners) if (!std::isfinite(d)) return false;
    }
    return true;
}

// Renders one pose into `acc` (RGB float, added) and optionally the plane id per pixel.
void render_pose(const vc_render_camera &cam, const vc_render_pose &pose, const vc_render_plane *planes,
                 int n_planes, const double bg[3], std::vector<float> &acc, std::vector<int32_t> &ids,
                 std::vector<double> &zinv) {
    const int W = cam.width, H = cam.height;
    std::fill(ids.begin(), ids.end(), -1);
    std::fill(zinv.begin(), zinv.end(), 0.0);
    std::vector<PreparedPlane> prepared(static_cast<size_t>(n_planes));
    const double max_zinv = 1.0 / cam.near_clip;
    // Pass 1: visibility. Nearest plane per pixel by exact inverse depth.
    for (int i = 0; i < n_planes; ++i) {
        prepared[i] = prepare(cam, pose, planes[i]);
        const PreparedPlane &p = prepared[i];
        if (!p.visible) continue;
        const Mat3 &h = p.Hinv;
        for (int v = p.y0; v <= p.y1; ++v) {
            for (int u = p.x0; u <= p.x1; ++u) {
                const double w = h[6] * u + h[7] * v + h[8];
                if (!(w > 0) || w > max_zinv) continue;  // behind the camera or before the near plane
                const size_t idx = size_t(v) * W + u;
                if (w <= zinv[idx]) continue;
                const double s = (h[0] * u + h[1] * v + h[2]) / w, t = (h[3] * u + h[4] * v + h[5]) / w;
                if (s < 0 || s > 1 || t < 0 || t > 1) continue;
                zinv[idx] = w;
                ids[idx] = i;
            }
        }
    }
    // Pass 2: shading. Trilinear texture sample at the pixel's footprint.
    for (int v = 0; v < H; ++v) {
        for (int u = 0; u < W; ++u) {
            const size_t idx = size_t(v) * W + u;
            float *out = &acc[3 * idx];
            const int id = ids[idx];
            if (id < 0) {
                for (int c = 0; c < 3; ++c) out[c] += float(bg[c]);
                continue;
            }
            const Mat3 &h = prepared[id].Hinv;
            const auto &levels = planes[id].texture->levels;
            const double w = h[6] * u + h[7] * v + h[8];
            const double s = (h[0] * u + h[1] * v + h[2]) / w, t = (h[3] * u + h[4] * v + h[5]) / w;
            const double tw = levels[0].cols, th = levels[0].rows;
            // Texels per pixel along the image axes.
            const double dsu = (h[0] - s * h[6]) / w * tw, dtu = (h[3] - t * h[6]) / w * th;
            const double dsv = (h[1] - s * h[7]) / w * tw, dtv = (h[4] - t * h[7]) / w * th;
            // Anisotropic filtering: up to 8 trilinear taps along the footprint's major axis,
            // each at the level of the footprint's extent divided among the taps, so walls
            // seen at grazing angles stay sharp without aliasing.
            const double lu = std::hypot(dsu, dtu), lv = std::hypot(dsv, dtv);
            const double major = std::max(lu, lv), minor = std::max(1e-12, std::min(lu, lv));
            const int taps = int(std::min(8.0, std::ceil(major / minor - 1e-9)));
            const double ds = (lu >= lv ? dsu : dsv) / tw, dt = (lu >= lv ? dtu : dtv) / th;  // major axis in s,t
            const double rho = major / taps;
            double lod = rho > 1 ? std::log2(rho) : 0.0;
            lod = std::min(lod, double(levels.size() - 1));
            const int l0 = int(lod);
            const int l1 = std::min(l0 + 1, int(levels.size()) - 1);
            const double f = lod - l0;
            double a[3] = {0, 0, 0}, b[3] = {0, 0, 0};
            const cv::Mat &m0 = levels[l0], &m1 = levels[l1];
            for (int k = 0; k < taps; ++k) {
                const double o = taps > 1 ? (k + 0.5) / taps - 0.5 : 0.0;
                const double ss = s + o * ds, tt = t + o * dt;
                double ta[3], tb[3] = {0, 0, 0};
                bilinear(m0, ss * m0.cols - 0.5, tt * m0.rows - 0.5, ta);
                if (f > 0 && l1 != l0) bilinear(m1, ss * m1.cols - 0.5, tt * m1.rows - 0.5, tb);
                for (int c = 0; c < 3; ++c) { a[c] += ta[c]; b[c] += tb[c]; }
            }
            for (int c = 0; c < 3; ++c) { a[c] /= taps; b[c] /= taps; }
            const double shade = planes[id].shade;
            for (int c = 0; c < 3; ++c) out[c] += float((a[c] + (b[c] - a[c]) * f) * shade);
        }
    }
}

// Motion blur by gathering: each pixel of the sharp image at poses[mid] sees a scene point
// (its exact depth is known from the z-buffer; background counts as infinitely far). At
// each other pose that point lands elsewhere; the pixel averages the sharp image at the
// positions that moved onto it (the flow taken as locally constant), which smears along
// the real, per-pixel image motion at a fraction of the cost of rendering every pose.
std::vector<float> motion_blur(const vc_render_camera &cam, const vc_render_pose *poses, int n, int mid,
                               const std::vector<float> &sharp, const std::vector<double> &zinv) {
    const int W = cam.width, H = cam.height;
    std::vector<float> out(sharp.size(), 0.0f);
    const double *Rm = poses[mid].R_cw, *tm = poses[mid].t_cw;
    // Relative transforms camera(mid) -> camera(k): R = R_k R_mid^T, t = t_k - R t_mid.
    std::vector<Mat3> R(static_cast<size_t>(n));
    std::vector<Vec3> T(static_cast<size_t>(n));
    for (int k = 0; k < n; ++k) {
        const double *Rk = poses[k].R_cw;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
                R[k][3 * i + j] = Rk[3 * i] * Rm[3 * j] + Rk[3 * i + 1] * Rm[3 * j + 1] + Rk[3 * i + 2] * Rm[3 * j + 2];
        for (int i = 0; i < 3; ++i)
            T[k][i] = poses[k].t_cw[i] - (R[k][3 * i] * tm[0] + R[k][3 * i + 1] * tm[1] + R[k][3 * i + 2] * tm[2]);
    }
    auto sample = [&](double x, double y, float *dst) {
        x = std::min(std::max(x, 0.0), double(W - 1));
        y = std::min(std::max(y, 0.0), double(H - 1));
        const int x0 = int(x), y0 = int(y), x1 = std::min(x0 + 1, W - 1), y1 = std::min(y0 + 1, H - 1);
        const float fx = float(x - x0), fy = float(y - y0);
        const float *a = &sharp[3 * (size_t(y0) * W + x0)], *b = &sharp[3 * (size_t(y0) * W + x1)];
        const float *c = &sharp[3 * (size_t(y1) * W + x0)], *d = &sharp[3 * (size_t(y1) * W + x1)];
        for (int ch = 0; ch < 3; ++ch) {
            const float top = a[ch] + (b[ch] - a[ch]) * fx, bot = c[ch] + (d[ch] - c[ch]) * fx;
            dst[ch] += top + (bot - top) * fy;
        }
    };
    for (int v = 0; v < H; ++v) {
        for (int u = 0; u < W; ++u) {
            const size_t idx = size_t(v) * W + u;
            const double rx = (u - cam.cx) / cam.fx, ry = (v - cam.cy) / cam.fy;
            const double w = zinv[idx];
            float *dst = &out[3 * idx];
            for (int k = 0; k < n; ++k) {
                const Mat3 &r = R[k];
                // Homogeneous point (ray, 1/z): translation scales with inverse depth (0 = far).
                const double X = r[0] * rx + r[1] * ry + r[2] + T[k][0] * w;
                const double Y = r[3] * rx + r[4] * ry + r[5] + T[k][1] * w;
                const double Z = r[6] * rx + r[7] * ry + r[8] + T[k][2] * w;
                if (!(Z > 1e-9)) { sample(u, v, dst); continue; }
                const double fu = cam.fx * X / Z + cam.cx - u, fv = cam.fy * Y / Z + cam.cy - v;
                sample(u - fu, v - fv, dst);
            }
            for (int ch = 0; ch < 3; ++ch) dst[ch] /= float(n);
        }
    }
    return out;
}

}  // namespace

extern "C" vc_render_effects vc_render_default_effects(void) {
    vc_render_effects e{};
    e.gain = 1;
    e.background[0] = e.background[1] = e.background[2] = 128;
    return e;
}

extern "C" vc_status vc_render(const vc_render_camera *camera, const vc_render_pose *poses, int32_t n_poses,
                               const vc_render_plane *planes, int32_t n_planes,
                               const vc_render_effects *effects, uint8_t *rgb_out, int32_t stride,
                               int32_t *plane_id_out) {
    if (!valid_inputs(camera, poses, n_poses, planes, n_planes, rgb_out, stride)) return VC_ERR_INVALID_ARGUMENT;
    const vc_render_effects fx = effects ? *effects : vc_render_default_effects();
    if (!(std::isfinite(fx.gain) && fx.gain >= 0 && std::isfinite(fx.vignetting) && fx.vignetting >= 0 &&
          fx.vignetting <= 1 && std::isfinite(fx.read_noise) && fx.read_noise >= 0 &&
          std::isfinite(fx.shot_noise) && fx.shot_noise >= 0))
        return VC_ERR_INVALID_ARGUMENT;
    return vc_guarded([&]() -> vc_status {
        const int W = camera->width, H = camera->height;
        const size_t n = size_t(W) * H;
        std::vector<float> acc(3 * n, 0.0f);
        std::vector<int32_t> ids(n);
        std::vector<double> zinv(n);
        const double bg[3] = {double(fx.background[0]), double(fx.background[1]), double(fx.background[2])};
        const int mid = n_poses / 2;
        render_pose(*camera, poses[mid], planes, n_planes, bg, acc, ids, zinv);
        if (plane_id_out) std::copy(ids.begin(), ids.end(), plane_id_out);
        if (n_poses > 1) acc = motion_blur(*camera, poses, n_poses, mid, acc, zinv);
        const double scale = fx.gain;
        const double hw = W / 2.0, hh = H / 2.0, r2max = hw * hw + hh * hh;
        for (int v = 0; v < H; ++v) {
            uint8_t *row = rgb_out + size_t(v) * stride;
            for (int u = 0; u < W; ++u) {
                const size_t idx = size_t(v) * W + u;
                const double du = u + 0.5 - hw, dv = v + 0.5 - hh;
                const double vig = 1 - fx.vignetting * (du * du + dv * dv) / r2max;
                for (int c = 0; c < 3; ++c) {
                    double val = acc[3 * idx + c] * scale * vig;
                    const double sigma2 = fx.read_noise * fx.read_noise + fx.shot_noise * fx.shot_noise * std::max(0.0, val);
                    if (sigma2 > 0) {
                        // Box-Muller on two counter-based uniforms: depends only on seed, pixel, channel.
                        const uint64_t h1 = splitmix64(fx.seed * 0x9E3779B97F4A7C15ULL + (uint64_t(idx) * 3 + uint64_t(c)));
                        const uint64_t h2 = splitmix64(h1 ^ 0xD1B54A32D192ED03ULL);
                        const double u1 = std::max(unit(h1), 1e-12), u2 = unit(h2);
                        val += std::sqrt(sigma2) * std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
                    }
                    row[3 * u + c] = uint8_t(std::lround(std::min(255.0, std::max(0.0, val))));
                }
            }
        }
        return VC_OK;
    });
}
