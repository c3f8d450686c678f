// Linear motion blur: estimate (structure tensor + derivative autocorrelation) and Wiener
// deconvolution, with FFTW's real transforms (real_fft.hpp).
#include "vc_motion_blur.h"
#include "vc_guarded.hpp"
#include "vc_image.h"
#include "hot_isa.hpp"
#include "real_fft.hpp"
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace {

bool valid_image(const uint8_t *gray, int32_t width, int32_t height) {
    return gray && width >= 16 && height >= 16 && int64_t(width) * height <= VC_DEFAULT_MAX_PIXELS;
}

// The least size ≥ n that is 2^a·3^b·5^c with a ≥ 3: a transform of an odd size (675 for
// 664) takes half again as long as one of 720.
int even_dft_size(int n) {
    int m = cv::getOptimalDFTSize(n);
    while (m % 8 != 0) m = cv::getOptimalDFTSize(m + 1);
    return m;
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
// frame's test costs little. A row's sums fit 32 bits (|g| ≤ 1020, so g² < 2^20, over at
// most 2047 columns), which lets the compiler vectorise the inner loop.
VC_HOT_ISA_BEGIN
void structure_tensor(const uint8_t *g, int W, int H, double &jxx, double &jyy, double &jxy) {
    int64_t sxx = 0, syy = 0, sxy = 0, n = 0;
    const int chunk = 2047;
    for (int y = 1; y + 1 < H; y += 2) {
        const uint8_t *a = g + size_t(y - 1) * W, *b = g + size_t(y) * W, *c = g + size_t(y + 1) * W;
        for (int x0 = 1; x0 + 1 < W; x0 += chunk) {
            const int x1 = std::min(W - 1, x0 + chunk);
            int32_t rxx = 0, ryy = 0, rxy = 0;
            for (int x = x0; x < x1; ++x) {
                const int32_t gx = (a[x + 1] - a[x - 1]) + 2 * (b[x + 1] - b[x - 1]) + (c[x + 1] - c[x - 1]);
                const int32_t gy = (c[x - 1] - a[x - 1]) + 2 * (c[x] - a[x]) + (c[x + 1] - a[x + 1]);
                rxx += gx * gx; ryy += gy * gy; rxy += gx * gy;
            }
            sxx += rxx; syy += ryy; sxy += rxy;
        }
        n += W - 2;
    }
    jxx = double(sxx) / double(n); jyy = double(syy) / double(n); jxy = double(sxy) / double(n);
}
VC_HOT_ISA_END

// The Wiener filter of a centred box of length L along (c, s): a real transfer function
// sinc(π L (c·u/cols + s·v/rows)) at frequency (u, v), filtered as H / (H² + k). The
// argument splits into a column and a row term, A + B: sin(A + B) comes from their sines
// and cosines, computed once per column and per row.
struct WienerBox {
    WienerBox(double length, double c, double s, int rows, int cols, double k) : k(k) {
        const int half = cols / 2 + 1;
        col_arg.resize(size_t(half)); col_sin.resize(size_t(half)); col_cos.resize(size_t(half));
        for (int x = 0; x < half; ++x) {
            col_arg[size_t(x)] = M_PI * length * c * x / double(cols);
            col_sin[size_t(x)] = std::sin(col_arg[size_t(x)]);
            col_cos[size_t(x)] = std::cos(col_arg[size_t(x)]);
        }
        row_arg.resize(size_t(rows)); row_sin.resize(size_t(rows)); row_cos.resize(size_t(rows));
        for (int y = 0; y < rows; ++y) {
            const double v = (y <= rows / 2 ? y : y - rows) / double(rows);
            row_arg[size_t(y)] = M_PI * length * s * v;
            row_sin[size_t(y)] = std::sin(row_arg[size_t(y)]);
            row_cos[size_t(y)] = std::cos(row_arg[size_t(y)]);
        }
    }
    // The factor at row frequency index y (0 ..< rows, wrapped) and column index x (0 ... cols/2).
    float operator()(int y, int x) const {
        const double arg = col_arg[size_t(x)] + row_arg[size_t(y)];
        const double h = std::abs(arg) < 1e-9 ? 1
            : (col_sin[size_t(x)] * row_cos[size_t(y)] + col_cos[size_t(x)] * row_sin[size_t(y)]) / arg;
        return float(h / (h * h + k));
    }
    double k;
    std::vector<double> col_arg, col_sin, col_cos, row_arg, row_sin, row_cos;
};

// Scales a half spectrum (FFTW's r2c layout: rows × (cols/2 + 1)) by a real, even filter.
void scale_spectrum(vc::RealFFT &fft, const WienerBox &w) {
    fftwf_complex *X = fft.spectrum();
    const int half = fft.spectrum_cols();
    for (int y = 0; y < fft.rows(); ++y) {
        fftwf_complex *row = X + size_t(y) * size_t(half);
        for (int x = 0; x < half; ++x) {
            const float g = w(y, x);
            row[x][0] *= g;
            row[x][1] *= g;
        }
    }
}

// `m` must have been written in place (a cv::Mat over the FFT's own buffer): OpenCV
// reallocates a destination of another size or type instead of writing into it.
void require_in_place(const cv::Mat &m, const float *buffer) {
    if (reinterpret_cast<const float *>(m.data) != buffer) throw std::logic_error("FFT buffer was reallocated");
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
        // Buffers kept per thread: a smeared frame then allocates nothing.
        thread_local cv::Mat gx, gy, d;
        cv::Sobel(img, gx, CV_32F, 1, 0, 3);
        cv::Sobel(img, gy, CV_32F, 0, 1, 3);
        cv::addWeighted(gx, c, gy, s, 0, d);
        cv::subtract(d, cv::Scalar(cv::mean(d)[0]), d);
        vc::RealFFT &fft = vc::RealFFT::for_thread(even_dft_size(height), even_dft_size(width));
        cv::Mat padded(fft.rows(), fft.cols(), CV_32F, fft.image());
        padded.setTo(0);
        d.copyTo(padded(cv::Rect(0, 0, width, height)));
        fft.forward();
        // The power spectrum |X|², whose inverse is the autocorrelation (unnormalised: only
        // its ratios to the zero lag are read).
        fftwf_complex *X = fft.spectrum();
        for (size_t i = 0, n = size_t(fft.rows()) * size_t(fft.spectrum_cols()); i < n; ++i) {
            X[i][0] = X[i][0] * X[i][0] + X[i][1] * X[i][1];
            X[i][1] = 0;
        }
        fft.inverse();
        const cv::Mat ac(fft.rows(), fft.cols(), CV_32F, fft.image());
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
        // Mirror the borders by more than half the smear along each axis, so the periodic
        // transform does not wrap one side's content into the other.
        const int pad_x = int(std::ceil(length * std::abs(c) / 2)) + 4, pad_y = int(std::ceil(length * std::abs(s) / 2)) + 4;
        const cv::Mat img(height, width, CV_8U, const_cast<uint8_t *>(gray));
        const int rows = even_dft_size(height + 2 * pad_y), cols = even_dft_size(width + 2 * pad_x);
        // Buffers kept per thread: a smeared frame then allocates nothing.
        thread_local cv::Mat padded;
        cv::copyMakeBorder(img, padded, pad_y, rows - height - pad_y, pad_x, cols - width - pad_x, cv::BORDER_REFLECT);
        vc::RealFFT &fft = vc::RealFFT::for_thread(rows, cols);
        cv::Mat f(rows, cols, CV_32F, fft.image());
        padded.convertTo(f, CV_32F);
        require_in_place(f, fft.image());
        // The real transform's half spectrum: half the work of a complex one. The filter is
        // real and even, so it scales each value by its frequency's factor.
        fft.forward();
        scale_spectrum(fft, WienerBox(length, c, s, rows, cols, noise_to_signal));
        fft.inverse();
        cv::Mat dst(height, width, CV_8U, out);
        // Rounds and saturates; the inverse transform is unnormalised (scaled by rows·cols).
        f(cv::Rect(pad_x, pad_y, width, height)).convertTo(dst, CV_8U, 1.0 / (double(rows) * double(cols)));
        return VC_OK;
    });
}
