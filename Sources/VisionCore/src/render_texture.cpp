// Procedural texture drawing and mip pyramids for the synthetic-scene renderer.
#include "vc_render.h"
#include "status_guard.hpp"
#include "render_internal.hpp"
#include "exif_orientation.hpp"
#include "jpeg_decode.hpp"
#include "png_decode.hpp"
#include "vc_image.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <new>

using namespace vc_render_detail;

namespace {

cv::Scalar rgb(const uint8_t c[3]) { return cv::Scalar(c[0], c[1], c[2]); }

// Region an op may touch, padded for thick strokes and anti-aliasing, clipped to the canvas.
cv::Rect op_bounds(const vc_draw_op &op, const cv::Size &size) {
    double x0 = 0, y0 = 0, x1 = size.width, y1 = size.height;
    const double pad = std::max(2, op.thickness) + 2;
    switch (op.kind) {
        case VC_DRAW_RECT:
        case VC_DRAW_GRADIENT: {
            // Rotation about the centre: bound by the circumscribed circle.
            double cx = (op.x0 + op.x1) / 2, cy = (op.y0 + op.y1) / 2;
            double r = std::hypot(op.x1 - op.x0, op.y1 - op.y0) / 2;
            x0 = cx - r; x1 = cx + r; y0 = cy - r; y1 = cy + r;
            break;
        }
        case VC_DRAW_ELLIPSE: {
            double r = std::max(std::abs(op.x1), std::abs(op.y1));
            x0 = op.x0 - r; x1 = op.x0 + r; y0 = op.y0 - r; y1 = op.y0 + r;
            break;
        }
        case VC_DRAW_LINE:
            x0 = std::min(op.x0, op.x1); x1 = std::max(op.x0, op.x1);
            y0 = std::min(op.y0, op.y1); y1 = std::max(op.y0, op.y1);
            break;
        case VC_DRAW_POLYGON:
            if (op.n_points > 0) {
                x0 = x1 = op.points[0]; y0 = y1 = op.points[1];
                for (int i = 1; i < op.n_points; ++i) {
                    x0 = std::min(x0, op.points[2 * i]); x1 = std::max(x1, op.points[2 * i]);
                    y0 = std::min(y0, op.points[2 * i + 1]); y1 = std::max(y1, op.points[2 * i + 1]);
                }
            }
            break;
        case VC_DRAW_TEXT: {
            int baseline = 0;
            cv::Size ts = cv::getTextSize(op.text ? op.text : "", op.font, op.size,
                                          std::max(1, op.thickness), &baseline);
            x0 = op.x0; x1 = op.x0 + ts.width; y0 = op.y0 - ts.height; y1 = op.y0 + baseline;
            break;
        }
        case VC_DRAW_BLOB:
            x0 = op.x0 - 3 * op.size; x1 = op.x0 + 3 * op.size;
            y0 = op.y0 - 3 * op.size; y1 = op.y0 + 3 * op.size;
            break;
        default:
            break;
    }
    cv::Rect r(int(std::floor(x0 - pad)), int(std::floor(y0 - pad)),
               int(std::ceil(x1 - x0 + 2 * pad)) + 1, int(std::ceil(y1 - y0 + 2 * pad)) + 1);
    return r & cv::Rect(0, 0, size.width, size.height);
}

// Smooth value noise over `roi` in [0, 1], one channel, CV_32F.
cv::Mat value_noise(const cv::Size &size, double cell, uint64_t seed) {
    cell = std::max(1.0, cell);
    int gw = int(std::ceil(size.width / cell)) + 3, gh = int(std::ceil(size.height / cell)) + 3;
    cv::Mat grid(gh, gw, CV_32F);
    for (int y = 0; y < gh; ++y)
        for (int x = 0; x < gw; ++x)
            grid.at<float>(y, x) = float(unit(splitmix64(seed ^ splitmix64(uint64_t(y) * 1000003ULL + uint64_t(x)))));
    cv::Mat big;
    cv::resize(grid, big, cv::Size(int(std::lround(gw * cell)), int(std::lround(gh * cell))), 0, 0, cv::INTER_CUBIC);
    cv::Mat out = big(cv::Rect(int(cell), int(cell), size.width, size.height)).clone();
    cv::min(cv::max(out, 0.0), 1.0, out);
    return out;
}

// Draws one op onto `layer` (the ROI copy of the canvas) with ROI-relative coordinates.
void draw_shape(cv::Mat &layer, const vc_draw_op &op, const cv::Point2d &o) {
    const int shift = 4;  // sub-pixel precision of OpenCV's drawing functions
    const double s = 1 << shift;
    auto P = [&](double x, double y) { return cv::Point(int(std::lround((x - o.x) * s)), int(std::lround((y - o.y) * s))); };
    const int thick = op.thickness < 0 ? cv::FILLED : std::max(1, op.thickness);
    const cv::Scalar c = rgb(op.color);
    switch (op.kind) {
        case VC_DRAW_RECT: {
            cv::RotatedRect rr(cv::Point2f(float((op.x0 + op.x1) / 2), float((op.y0 + op.y1) / 2)),
                               cv::Size2f(float(std::abs(op.x1 - op.x0)), float(std::abs(op.y1 - op.y0))),
                               float(op.angle_deg));
            cv::Point2f pts[4];
            rr.points(pts);
            std::vector<cv::Point> poly;
            for (auto &p : pts) poly.push_back(P(p.x, p.y));
            if (thick == cv::FILLED) cv::fillConvexPoly(layer, poly, c, cv::LINE_AA, shift);
            else cv::polylines(layer, poly, true, c, thick, cv::LINE_AA, shift);
            break;
        }
        case VC_DRAW_ELLIPSE:
            cv::ellipse(layer, P(op.x0, op.y0), cv::Size(int(std::lround(std::abs(op.x1) * s)), int(std::lround(std::abs(op.y1) * s))),
                        op.angle_deg, 0, 360, c, thick, cv::LINE_AA, shift);
            break;
        case VC_DRAW_LINE:
            cv::line(layer, P(op.x0, op.y0), P(op.x1, op.y1), c, std::max(1, op.thickness), cv::LINE_AA, shift);
            break;
        case VC_DRAW_POLYGON: {
            std::vector<cv::Point> poly;
            for (int i = 0; i < op.n_points; ++i) poly.push_back(P(op.points[2 * i], op.points[2 * i + 1]));
            std::vector<std::vector<cv::Point>> polys{poly};
            if (thick == cv::FILLED) cv::fillPoly(layer, polys, c, cv::LINE_AA, shift);
            else cv::polylines(layer, polys, op.closed != 0, c, thick, cv::LINE_AA, shift);
            break;
        }
        case VC_DRAW_TEXT:
            cv::putText(layer, op.text ? op.text : "", cv::Point(int(std::lround(op.x0 - o.x)), int(std::lround(op.y0 - o.y))),
                        op.font & 7, op.size, c, std::max(1, op.thickness), cv::LINE_AA);
            break;
        default:
            break;
    }
}

bool valid_op(const vc_draw_op &op) {
    if (op.kind < VC_DRAW_FILL || op.kind > VC_DRAW_GRADIENT) return false;
    const double v[] = {op.x0, op.y0, op.x1, op.y1, op.angle_deg, op.size, op.alpha};
    for (double d : v) if (!std::isfinite(d) || std::abs(d) > 1e6) return false;
    if (op.alpha < 0 || op.alpha > 1) return false;
    if (op.thickness > 1000) return false;
    if (op.kind == VC_DRAW_POLYGON && (op.points == nullptr || op.n_points < 2 || op.n_points > 100000)) return false;
    if (op.kind == VC_DRAW_POLYGON)
        for (int i = 0; i < 2 * op.n_points; ++i) if (!std::isfinite(op.points[i]) || std::abs(op.points[i]) > 1e6) return false;
    if ((op.kind == VC_DRAW_NOISE || op.kind == VC_DRAW_BLOB) && !(op.size > 0)) return false;
    if (op.kind == VC_DRAW_TEXT && !(op.size > 0 && op.size < 100)) return false;
    return true;
}

// Applies one op to the canvas, blending with op.alpha inside the op's bounds.
void apply(cv::Mat &canvas, const vc_draw_op &op) {
    if (op.alpha <= 0) return;
    if (op.kind == VC_DRAW_FILL) {
        cv::Mat solid(canvas.size(), CV_8UC3, rgb(op.color));
        cv::addWeighted(solid, op.alpha, canvas, 1 - op.alpha, 0, canvas);
        return;
    }
    const cv::Rect r = op_bounds(op, canvas.size());
    if (r.empty()) return;
    cv::Mat roi = canvas(r);
    if (op.kind == VC_DRAW_NOISE || op.kind == VC_DRAW_BLOB || op.kind == VC_DRAW_GRADIENT) {
        // Per-pixel weight w in [0, 1]: colour = mix(color, color2, w) (noise, gradient) or
        // colour over canvas with opacity alpha*w (blob).
        cv::Mat w(r.size(), CV_32F);
        cv::Mat mask;  // gradient: inside the rotated rectangle
        if (op.kind == VC_DRAW_NOISE) {
            w = value_noise(r.size(), op.size, op.seed);
        } else if (op.kind == VC_DRAW_BLOB) {
            const double inv = 1.0 / (2 * op.size * op.size);
            for (int y = 0; y < r.height; ++y)
                for (int x = 0; x < r.width; ++x) {
                    double dx = x + r.x - op.x0, dy = y + r.y - op.y0;
                    w.at<float>(y, x) = float(std::exp(-(dx * dx + dy * dy) * inv));
                }
        } else {
            const double a = op.angle_deg * M_PI / 180, ca = std::cos(a), sa = std::sin(a);
            const double cx = (op.x0 + op.x1) / 2, cy = (op.y0 + op.y1) / 2;
            const double hw = std::abs(op.x1 - op.x0) / 2, hh = std::abs(op.y1 - op.y0) / 2;
            mask = cv::Mat::zeros(r.size(), CV_8U);
            for (int y = 0; y < r.height; ++y)
                for (int x = 0; x < r.width; ++x) {
                    double dx = x + r.x - cx, dy = y + r.y - cy;
                    double lx = ca * dx + sa * dy, ly = -sa * dx + ca * dy;
                    w.at<float>(y, x) = float(std::min(1.0, std::max(0.0, (lx + hw) / std::max(1e-9, 2 * hw))));
                    mask.at<uint8_t>(y, x) = (std::abs(lx) <= hw && std::abs(ly) <= hh) ? 1 : 0;
                }
        }
        for (int y = 0; y < r.height; ++y) {
            auto *px = roi.ptr<cv::Vec3b>(y);
            const float *wr = w.ptr<float>(y);
            for (int x = 0; x < r.width; ++x) {
                if (!mask.empty() && !mask.at<uint8_t>(y, x)) continue;
                for (int c = 0; c < 3; ++c) {
                    double target, opacity;
                    if (op.kind == VC_DRAW_BLOB) { target = op.color[c]; opacity = op.alpha * wr[x]; }
                    else { target = op.color[c] + (op.color2[c] - op.color[c]) * double(wr[x]); opacity = op.alpha; }
                    double v = px[x][c] + (target - px[x][c]) * opacity;
                    px[x][c] = cv::saturate_cast<uint8_t>(v);
                }
            }
        }
        return;
    }
    if (op.alpha >= 1) {
        draw_shape(roi, op, cv::Point2d(r.x, r.y));
    } else {
        cv::Mat layer = roi.clone();
        draw_shape(layer, op, cv::Point2d(r.x, r.y));
        cv::addWeighted(layer, op.alpha, roi, 1 - op.alpha, 0, roi);
    }
}

}  // namespace

void vc_render_detail::build_mips(vc_texture &tex, const cv::Mat &base) {
    tex.levels.clear();
    tex.levels.push_back(base);
    while (tex.levels.back().cols > 1 || tex.levels.back().rows > 1) {
        const cv::Mat &prev = tex.levels.back();
        cv::Mat next;
        cv::pyrDown(prev, next, cv::Size(std::max(1, (prev.cols + 1) / 2), std::max(1, (prev.rows + 1) / 2)));
        tex.levels.push_back(next);
    }
}

namespace {

// Hands out a new texture whose base level `draw` makes (it may give up with a status
// other than VC_OK).
template <class Draw>
vc_status make_texture(vc_texture **out, Draw draw) {
    return vc_guarded([&]() -> vc_status {
        cv::Mat base;
        const vc_status status = draw(base);
        if (status != VC_OK) return status;
        auto *tex = new vc_texture();
        build_mips(*tex, base);
        *out = tex;
        return VC_OK;
    });
}

}  // namespace

extern "C" vc_status vc_texture_create(int32_t width, int32_t height, const vc_draw_op *ops, int32_t n_ops,
                                       vc_texture **out) {
    if (!out) return VC_ERR_INVALID_ARGUMENT;
    *out = nullptr;
    if (width < 1 || height < 1 || width > 8192 || height > 8192 || n_ops < 0 || (n_ops > 0 && !ops))
        return VC_ERR_INVALID_ARGUMENT;
    for (int i = 0; i < n_ops; ++i) if (!valid_op(ops[i])) return VC_ERR_INVALID_ARGUMENT;
    return make_texture(out, [&](cv::Mat &canvas) -> vc_status {
        canvas = cv::Mat::zeros(height, width, CV_8UC3);
        for (int i = 0; i < n_ops; ++i) apply(canvas, ops[i]);
        return VC_OK;
    });
}

extern "C" vc_status vc_texture_create_from_image(const uint8_t *data, size_t len, int32_t width,
                                                  int32_t height, vc_texture **out) {
    if (!out) return VC_ERR_INVALID_ARGUMENT;
    *out = nullptr;
    if (!data || len == 0 || width > 8192 || height > 8192) return VC_ERR_INVALID_ARGUMENT;
    return make_texture(out, [&](cv::Mat &rgbm) -> vc_status {
        vc_image_info info{};
        if (vc_status s = vc_image_probe(data, len, &info); s != VC_OK) return s;
        if (info.width > 8192 || info.height > 8192) return VC_ERR_TOO_LARGE;
        rgbm.create(info.height, info.width, CV_8UC3);
        int orientation = 1;
        const vc_status s = info.format == VC_IMAGE_FORMAT_PNG
                                ? vc::decode_png(data, len, info.width, info.height, 3, rgbm.data)
                                : vc::decode_jpeg(data, len, info.width, info.height, 3, rgbm.data, &orientation);
        if (s != VC_OK) return s;
        vc::apply_exif_orientation(rgbm, orientation);
        if (width > 0 && height > 0 && (width != rgbm.cols || height != rgbm.rows)) {
            cv::Mat resized;
            cv::resize(rgbm, resized, cv::Size(width, height), 0, 0,
                       width < rgbm.cols ? cv::INTER_AREA : cv::INTER_CUBIC);
            rgbm = resized;
        }
        return VC_OK;
    });
}

extern "C" void vc_texture_size(const vc_texture *texture, int32_t *width, int32_t *height) {
    int w = 0, h = 0;
    if (texture && !texture->levels.empty()) { w = texture->levels[0].cols; h = texture->levels[0].rows; }
    if (width) *width = w;
    if (height) *height = h;
}

extern "C" vc_status vc_texture_read(const vc_texture *texture, uint8_t *rgb_out, int32_t stride) {
    if (!texture || !rgb_out || texture->levels.empty()) return VC_ERR_INVALID_ARGUMENT;
    const cv::Mat &m = texture->levels[0];
    if (stride < m.cols * 3) return VC_ERR_INVALID_ARGUMENT;
    for (int y = 0; y < m.rows; ++y) std::copy(m.ptr<uint8_t>(y), m.ptr<uint8_t>(y) + m.cols * 3, rgb_out + size_t(y) * stride);
    return VC_OK;
}

extern "C" void vc_texture_destroy(vc_texture *texture) { delete texture; }
