// ASIFT's simulated views: rotate, anti-alias along x, shrink along x (OpenCV).
#include "vc_affine_view.h"
#include "vc_guarded.hpp"
#include "vc_image.h"
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <algorithm>
#include <cmath>

namespace {

bool valid(int32_t width, int32_t height, double tilt, double angle_deg) {
    return width >= 16 && height >= 16 && int64_t(width) * height <= VC_DEFAULT_MAX_PIXELS && tilt >= 1 && tilt <= 8 &&
           std::isfinite(angle_deg);
}

// The rotation (with the translation that keeps the rotated image in positive pixels) and
// the rotated size; then the shrink along x as OpenCV's resize maps pixel centres.
void geometry(int32_t width, int32_t height, double tilt, double angle_deg, cv::Mat *rotation, cv::Size *rotated,
              vc_affine_view_geometry *out) {
    const double a = angle_deg * CV_PI / 180, c = std::cos(a), s = std::sin(a);
    const double xs[4] = {0, double(width - 1), 0, double(width - 1)}, ys[4] = {0, 0, double(height - 1), double(height - 1)};
    double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
    for (int i = 0; i < 4; ++i) {
        const double u = c * xs[i] - s * ys[i], v = s * xs[i] + c * ys[i];
        x0 = std::min(x0, u); x1 = std::max(x1, u); y0 = std::min(y0, v); y1 = std::max(y1, v);
    }
    *rotation = (cv::Mat_<double>(2, 3) << c, -s, -x0, s, c, -y0);
    *rotated = cv::Size(int(std::ceil(x1 - x0)) + 1, int(std::ceil(y1 - y0)) + 1);
    const int w = std::max(1, int(std::lround(rotated->width / tilt)));
    out->width = w;
    out->height = rotated->height;
    // resize: x_view = (x_rot + 0.5) · w / W − 0.5.
    const double k = double(w) / rotated->width;
    out->A[0] = k * c; out->A[1] = -k * s; out->A[2] = k * (-x0 + 0.5) - 0.5;
    out->A[3] = s;     out->A[4] = c;      out->A[5] = -y0;
}

}  // namespace

extern "C" vc_status vc_affine_view_geometry_of(int32_t width, int32_t height, double tilt, double angle_deg,
                                                vc_affine_view_geometry *out) {
    return vc::guarded([&]() -> vc_status {
        if (!out || !valid(width, height, tilt, angle_deg))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "affine view: NULL output, image under 16 px, or tilt outside [1, 8]");
        cv::Mat rotation;
        cv::Size rotated;
        geometry(width, height, tilt, angle_deg, &rotation, &rotated, out);
        return VC_OK;
    });
}

extern "C" vc_status vc_affine_view(const uint8_t *gray, int32_t width, int32_t height, double tilt, double angle_deg,
                                    uint8_t *out, size_t out_capacity, vc_affine_view_geometry *g) {
    return vc::guarded([&]() -> vc_status {
        if (!gray || !g || !valid(width, height, tilt, angle_deg))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "affine view: NULL pointer, image under 16 px, or tilt outside [1, 8]");
        cv::Mat rotation;
        cv::Size rotated;
        geometry(width, height, tilt, angle_deg, &rotation, &rotated, g);
        if (!out || out_capacity < size_t(g->width) * size_t(g->height))
            return vc::fail(VC_ERR_BUFFER_TOO_SMALL, "affine view: output buffer too small");
        const cv::Mat src(height, width, CV_8UC1, const_cast<uint8_t *>(gray));
        cv::Mat turned;
        cv::warpAffine(src, turned, rotation, rotated, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar(0));
        if (tilt > 1) {
            const double sigma = 0.8 * std::sqrt(tilt * tilt - 1);
            const int k = 2 * int(std::ceil(3 * sigma)) + 1;
            cv::Mat kx = cv::getGaussianKernel(k, sigma, CV_32F), ky = (cv::Mat_<float>(1, 1) << 1.0f);
            cv::sepFilter2D(turned, turned, -1, kx, ky);
        }
        cv::Mat view(g->height, g->width, CV_8UC1, out);
        cv::resize(turned, view, view.size(), 0, 0, cv::INTER_LINEAR);
        return VC_OK;
    });
}
