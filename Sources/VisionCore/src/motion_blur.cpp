// Linear motion blur: estimate (structure tensor + derivative autocorrelation) and Wiener
// deconvolution, with OpenCV's DFT.
#include "vc_motion_blur.h"
#include "vc_guarded.hpp"
#include "vc_image.h"
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <algorithm>
#include <cmath>
#include <vector>

namespace {

bool valid_image(const uint8_t *gray, int32_t width, int32_t height) {
    return gray && width >= 16 && height >= 16 && int64_t(width) * height <= VC_DEFAULT_MAX_PIXELS;
}

// Bilinear sample of a periodic (circular) float image: autocorrelation lags wrap around.
float sample_periodic(const cv::Mat &m, double x, double y) {
    const int W = m.cols, H = m.rows;
    const double fx = std::floor(x), fy = std::floor(y);
    const double ax = x - fx, ay = y - fy;
    auto at = [&](long i, long j) {
        const int r = int(((j % H) + H) % H), c = int(((i % W) + W) % W);
        return double(m.at<float>(r, c));
    };
    const long i = long(fx), j = long(fy);
    return float((1 - ay) * ((1 - ax) * at(i, j) + ax * at(i + 1, j)) + ay * ((1 - ax) * at(i, j + 1) + ax * at(i + 1, j + 1)));
}

// Mean structure tensor (Sobel gradients) over the interior of every second row: the same
// statistics as every row for a fraction of the work, and no allocation, so that a sharp
// frame's test costs little.
void structure_tensor(const uint8_t *g, int W, int H, double &jxx, double &jyy, double &jxy) {
    int64_t sxx = 0, syy = 0, sxy = 0, n = 0;
    for (int y = 1; y + 1 < H; y += 2) {
        const uint8_t *a = g + size_t(y - 1) * W, *b = g + size_t(y) * W, *c = g + size_t(y + 1) * W;
        int64_t rxx = 0, ryy = 0, rxy = 0;
        for (int x = 1; x + 1 < W; ++x) {
            const int gx = (a[x + 1] - a[x - 1]) + 2 * (b[x + 1] - b[x - 1]) + (c[x + 1] - c[x - 1]);
            const int gy = (c[x - 1] - a[x - 1]) + 2 * (c[x] - a[x]) + (c[x + 1] - a[x + 1]);
            rxx += gx * gx; ryy += gy * gy; rxy += gx * gy;
        }
        sxx += rxx; syy += ryy; sxy += rxy; n += W - 2;
    }
    jxx = double(sxx) / double(n); jyy = double(syy) / double(n); jxy = double(sxy) / double(n);
}

}  // namespace

extern "C" vc_status vc_motion_blur_estimate(const uint8_t *gray, int32_t width, int32_t height,
                                             double min_anisotropy, vc_motion_blur *out) {
    return vc::guarded([&]() -> vc_status {
        if (!out || !valid_image(gray, width, height) || !std::isfinite(min_anisotropy))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument, image smaller than 16x16 or too large");
        *out = vc_motion_blur{};
        out->anisotropy = 1;
        double jxx = 0, jyy = 0, jxy = 0;
        structure_tensor(gray, width, height, jxx, jyy, jxy);
        // Eigen-decomposition of the 2×2 structure tensor [jxx jxy; jxy jyy].
        const double half_trace = 0.5 * (jxx + jyy);
        const double root = std::sqrt(0.25 * (jxx - jyy) * (jxx - jyy) + jxy * jxy);
        const double major = half_trace + root, minor = half_trace - root;
        if (!(minor > 0)) return VC_OK;  // a flat or one-dimensional image: no direction to speak of
        // Minor axis: the direction along which intensity changes least.
        double c = jxy, s = minor - jxx;
        if (std::hypot(c, s) < 1e-12 * (std::abs(jxx) + std::abs(jyy))) { c = jxx <= jyy ? 1 : 0; s = jxx <= jyy ? 0 : 1; }
        const double n = std::hypot(c, s);
        c /= n; s /= n;
        if (s < 0 || (s == 0 && c < 0)) { c = -c; s = -s; }
        out->angle_deg = std::fmod(std::atan2(s, c) * 180 / M_PI + 180, 180);
        out->anisotropy = major / minor;
        if (out->anisotropy < min_anisotropy) return VC_OK;

        // Autocorrelation of the derivative along the direction, through the power spectrum
        // (zero-padded to a fast transform size).
        const cv::Mat img(height, width, CV_8U, const_cast<uint8_t *>(gray));
        cv::Mat gx, gy;
        cv::Sobel(img, gx, CV_32F, 1, 0, 3);
        cv::Sobel(img, gy, CV_32F, 0, 1, 3);
        cv::Mat d = float(c) * gx + float(s) * gy;
        d -= cv::mean(d)[0];
        cv::copyMakeBorder(d, d, 0, cv::getOptimalDFTSize(height) - height, 0, cv::getOptimalDFTSize(width) - width,
                           cv::BORDER_CONSTANT, 0);
        cv::Mat spectrum, power, ac;
        cv::dft(d, spectrum);
        cv::mulSpectrums(spectrum, spectrum, power, 0, true);
        cv::dft(power, ac, cv::DFT_INVERSE | cv::DFT_REAL_OUTPUT | cv::DFT_SCALE);
        const float zero = ac.at<float>(0, 0);
        if (!(zero > 0)) return VC_OK;
        const double max_lag = std::max(16.0, std::max(width, height) / 16.0);
        double best = 0, best_lag = 0;
        for (double r = 2; r <= max_lag; r += 0.5) {
            const double v = sample_periodic(ac, r * c, r * s) / zero;
            if (v < best) { best = v; best_lag = r; }
        }
        out->length_px = best_lag;
        return VC_OK;
    });
}

extern "C" vc_status vc_motion_deblur(const uint8_t *gray, int32_t width, int32_t height, const vc_motion_blur *blur,
                                      double noise_to_signal, uint8_t *out) {
    return vc::guarded([&]() -> vc_status {
        if (!out || !blur || !valid_image(gray, width, height) || out == gray)
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL or aliased buffer, image smaller than 16x16 or too large");
        const double length = blur->length_px;
        if (!(length > 0) || !(length <= std::min(width, height)) || !std::isfinite(blur->angle_deg))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "blur length must be > 0 and at most the image's shorter side");
        if (!(noise_to_signal > 0) || !std::isfinite(noise_to_signal))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "noise_to_signal must be > 0");
        const double a = blur->angle_deg * M_PI / 180, c = std::cos(a), s = std::sin(a);
        // Mirror the borders by more than half the smear, so the periodic transform does not
        // wrap one side's content into the other.
        const int pad = int(std::ceil(length / 2)) + 4;
        const cv::Mat img(height, width, CV_8U, const_cast<uint8_t *>(gray));
        cv::Mat padded;
        cv::copyMakeBorder(img, padded, pad, pad, pad, pad, cv::BORDER_REFLECT);
        const int rows = cv::getOptimalDFTSize(padded.rows), cols = cv::getOptimalDFTSize(padded.cols);
        cv::Mat f;
        cv::copyMakeBorder(padded, f, 0, rows - padded.rows, 0, cols - padded.cols, cv::BORDER_REFLECT);
        f.convertTo(f, CV_32F);
        cv::Mat F;
        cv::dft(f, F, cv::DFT_COMPLEX_OUTPUT);
        // A centred box of length L along (c, s) has the real transfer function
        // sinc(π L (c·u/cols + s·v/rows)) at frequency (u, v); the Wiener filter is then the
        // real H / (H² + noise_to_signal).
        // The argument splits into a column and a row term, A + B: sin(A + B) comes from
        // their sines and cosines, computed once per column and per row.
        std::vector<double> a_arg(static_cast<size_t>(cols)), a_sin(static_cast<size_t>(cols)), a_cos(static_cast<size_t>(cols));
        for (int x = 0; x < cols; ++x) {
            const double u = (x <= cols / 2 ? x : x - cols) / double(cols);
            a_arg[size_t(x)] = M_PI * length * c * u;
            a_sin[size_t(x)] = std::sin(a_arg[size_t(x)]);
            a_cos[size_t(x)] = std::cos(a_arg[size_t(x)]);
        }
        for (int y = 0; y < rows; ++y) {
            cv::Vec2f *pf = F.ptr<cv::Vec2f>(y);
            const double v = (y <= rows / 2 ? y : y - rows) / double(rows);
            const double b = M_PI * length * s * v, sb = std::sin(b), cb = std::cos(b);
            for (int x = 0; x < cols; ++x) {
                const double arg = a_arg[size_t(x)] + b;
                const double h = std::abs(arg) < 1e-9 ? 1 : (a_sin[size_t(x)] * cb + a_cos[size_t(x)] * sb) / arg;
                pf[x] *= float(h / (h * h + noise_to_signal));
            }
        }
        cv::Mat restored;
        cv::dft(F, restored, cv::DFT_INVERSE | cv::DFT_REAL_OUTPUT | cv::DFT_SCALE);
        cv::Mat dst(height, width, CV_8U, out);
        restored(cv::Rect(pad, pad, width, height)).convertTo(dst, CV_8U);  // rounds and saturates
        return VC_OK;
    });
}
