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

// The least size ≥ n of the form 2^a·b, a ≥ 5 and b one of 1, 3, 5, 7: the sizes FFTW's
// estimated plans transform fastest. Measured on 512 rows: 640 columns 2.0 ms a pair, 768
// 2.4, but 672 (2^5·21) 2.6, 688 (2^4·43) 5.4; on 640 columns, 512 rows 2.0 ms, 528 2.7.
int fft_size(int n) {
    int best = 0;
    for (int b : {1, 3, 5, 7}) {
        int m = 32 * b;
        while (m < n) m *= 2;
        if (best == 0 || m < best) best = m;
    }
    return best;
}

// Longest smear searched: a sixteenth of the longer side, at least 16 px.
double longest_smear(int width, int height) { return std::max(16.0, std::max(width, height) / 16.0); }

// The smear the first transform's borders are wide enough for: the longest of the synthetic
// sessions' is 18 px. A longer one is transformed again with wider borders.
constexpr double padded_smear = 24;

// The frame the transforms run on: the image with its borders mirrored by more than half
// a smear of `longest` along each axis (so the periodic transform does not wrap one side's
// content into the other), padded to a fast size.
struct MirroredFrame {
    MirroredFrame(int width, int height, double longest, double c, double s) {
        pad_x = int(std::ceil(longest * std::abs(c) / 2)) + 4;
        pad_y = int(std::ceil(longest * std::abs(s) / 2)) + 4;
        rows = fft_size(height + 2 * pad_y);
        cols = fft_size(width + 2 * pad_x);
    }
    int pad_x, pad_y, rows, cols;
};

// The length search reads the frame's central 320 × 240 window (240 × 320 upright), grown on
// both axes to six times the longest smear searched (a sixteenth of the longer side) when
// that is more, so that the autocorrelation's fold (half the window) stays at least three
// such smears away. A camera that turns during the exposure smears the whole frame alike,
// and such a window holds edges enough: over the nine blurred gallery sessions it placed
// 98.7 % single-shot within (5 cm, 2°) where the whole 640 × 480 frame placed 98.3 % (none
// more than 25 cm off either way). Its transforms cost a third of the frame's, so a frame
// that is anisotropic but not smeared pays little (fountain-P11's 1024 × 683 facade photos,
// window 384 × 384: 1.3 ms instead of 2.1), and a smeared one is transformed whole only to
// be deconvolved.
struct SearchWindow {
    SearchWindow(int width, int height) {
        const int grown = int(std::ceil(6 * longest_smear(width, height)));
        w = std::min(width, std::max(width >= height ? 320 : 240, grown));
        h = std::min(height, std::max(width >= height ? 240 : 320, grown));
        x = (width - w) / 2;
        y = (height - h) / 2;
    }
    bool whole(int width, int height) const { return w == width && h == height; }
    // The window's first pixel in a frame `width` pixels wide.
    const uint8_t *origin(const uint8_t *gray, int width) const { return gray + size_t(y) * width + x; }
    int x, y, w, h;
};

// Writes `gray` mirrored into the frame's buffer (as floats) and transforms it: the
// spectrum that both the length search and the deconvolution read. (Filling the frame
// beyond the borders with a blend from one side back to the other instead, which adds no
// edges, was measured too: over the nine blurred sessions it accepted seven frames more than
// 25 cm off, where the mirror accepted none.)
// `stride`: bytes from one row to the next (0: `width`), so that a window is read in place.
vc::RealFFT &transform_mirrored(const uint8_t *gray, int width, int height, const MirroredFrame &m, int stride = 0) {
    const cv::Mat img(height, width, CV_8U, const_cast<uint8_t *>(gray), size_t(stride > 0 ? stride : width));
    // Buffers kept per thread: a smeared frame then allocates nothing.
    thread_local cv::Mat padded;
    cv::copyMakeBorder(img, padded, m.pad_y, m.rows - height - m.pad_y, m.pad_x, m.cols - width - m.pad_x,
                       cv::BORDER_REFLECT);
    vc::RealFFT &fft = vc::RealFFT::for_thread(m.rows, m.cols);
    cv::Mat f(m.rows, m.cols, CV_32F, fft.image());
    padded.convertTo(f, CV_32F);
    if (reinterpret_cast<const float *>(f.data) != fft.image()) throw std::logic_error("FFT buffer was reallocated");
    fft.forward();
    return fft;
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

// Per-frequency sine and cosine tables of one axis of a half spectrum: `n` values of
// angle(i) = step · (i wrapped to −n/2 … n/2).
struct AxisTable {
    AxisTable(int n, int size, double step) : arg(size_t(n)), sin(size_t(n)), cos(size_t(n)) {
        for (int i = 0; i < n; ++i) {
            const double a = step * double(i <= size / 2 ? i : i - size);
            arg[size_t(i)] = float(a);
            sin[size_t(i)] = float(std::sin(a));
            cos[size_t(i)] = float(std::cos(a));
        }
    }
    std::vector<float> arg, sin, cos;
};

VC_HOT_ISA_BEGIN
// Writes into fft.scratch() the power spectrum of the Sobel derivative along (c, s) of the
// image whose spectrum fft.spectrum() holds. Sobel's x kernel is a central difference
// along x times [1 2 1] along y: 2i·sin ωx · (2 + 2 cos ωy) in frequency (and y alike), so
// the derivative's transform is the image's scaled per frequency, with no transform of its
// own (the constant 2i is dropped: only ratios to the zero lag are read). (Keeping every
// second frequency, a quarter of the inverse transform's cost, folds the autocorrelation at
// half the frame: on the blurred sessions it put five smears of 15 px at 40.)
void derivative_power(vc::RealFFT &fft, double c, double s) {
    const int rows = fft.rows(), half = fft.spectrum_cols();
    const AxisTable x(half, fft.cols(), 2 * M_PI / fft.cols()), y(rows, rows, 2 * M_PI / rows);
    const float fc = float(c), fs = float(s);
    const fftwf_complex *X = fft.spectrum();
    fftwf_complex *P = fft.scratch();
    for (int j = 0; j < rows; ++j) {
        const float sy = y.sin[size_t(j)], cy2 = 2 + 2 * y.cos[size_t(j)];
        const fftwf_complex *in = X + size_t(j) * size_t(half);
        fftwf_complex *out = P + size_t(j) * size_t(half);
        for (int k = 0; k < half; ++k) {
            const float g = fc * x.sin[size_t(k)] * cy2 + fs * sy * (2 + 2 * x.cos[size_t(k)]);
            out[k][0] = (in[k][0] * in[k][0] + in[k][1] * in[k][1]) * g * g;
            out[k][1] = 0;
        }
    }
}

// Scales fft.spectrum() by the Wiener filter of a centred box of `length` along (c, s): the
// box's real transfer function h = sin(a)/a, a = A + B with A = π·length·c·u/cols and
// B = π·length·s·v/rows at frequency (u, v), filtered as h / (h² + k) = sin(a)·a / (sin²(a) + k·a²):
// one division, and no branch but the zero frequency's (where the filter is 1/(1 + k)), so
// the loop vectorises. sin(A + B) comes from the tables' sines and cosines of A and B.
void wiener_box(vc::RealFFT &fft, double length, double c, double s, double k) {
    const int rows = fft.rows(), half = fft.spectrum_cols();
    const AxisTable a(half, fft.cols(), M_PI * length * c / fft.cols()), b(rows, rows, M_PI * length * s / rows);
    const float fk = float(k), at_zero = float(1 / (1 + k));
    fftwf_complex *X = fft.spectrum();
    for (int j = 0; j < rows; ++j) {
        const float bj = b.arg[size_t(j)], sb = b.sin[size_t(j)], cb = b.cos[size_t(j)];
        fftwf_complex *row = X + size_t(j) * size_t(half);
        for (int i = 0; i < half; ++i) {
            const float arg = a.arg[size_t(i)] + bj;
            const float sn = a.sin[size_t(i)] * cb + a.cos[size_t(i)] * sb;
            const float den = sn * sn + fk * arg * arg;
            const float g = den > 1e-20f ? sn * arg / den : at_zero;
            row[i][0] *= g;
            row[i][1] *= g;
        }
    }
}
VC_HOT_ISA_END

// The direction of the smear (the structure tensor's minor axis) and the anisotropy, into
// `out` (length 0). False when the image has no direction to speak of or the anisotropy is
// below `min_anisotropy`: no length is searched then.
bool smear_direction(const uint8_t *gray, int width, int height, double min_anisotropy, vc_motion_blur *out,
                     double &c, double &s) {
    *out = vc_motion_blur{};
    out->anisotropy = 1;
    double jxx = 0, jyy = 0, jxy = 0;
    structure_tensor(gray, width, height, jxx, jyy, jxy);
    // Eigen-decomposition of the 2×2 structure tensor [jxx jxy; jxy jyy].
    const double half_trace = 0.5 * (jxx + jyy);
    const double root = std::sqrt(0.25 * (jxx - jyy) * (jxx - jyy) + jxy * jxy);
    const double major = half_trace + root, minor = half_trace - root;
    if (!(minor > 0)) return false;  // a flat or one-dimensional image
    // Minor axis: the direction along which intensity changes least.
    c = jxy; s = minor - jxx;
    if (std::hypot(c, s) < 1e-12 * (std::abs(jxx) + std::abs(jyy))) { c = jxx <= jyy ? 1 : 0; s = jxx <= jyy ? 0 : 1; }
    const double n = std::hypot(c, s);
    c /= n; s /= n;
    if (s < 0 || (s == 0 && c < 0)) { c = -c; s = -s; }
    out->angle_deg = std::fmod(std::atan2(s, c) * 180 / M_PI + 180, 180);
    out->anisotropy = major / minor;
    return out->anisotropy >= min_anisotropy;
}

// The smear's length: the lag of the deepest minimum, along (c, s), of the autocorrelation
// of the derivative along it, the inverse transform of its power spectrum. Keeps
// fft.spectrum(); overwrites fft.image(). 0 when the frame has no gradient.
double smear_length(vc::RealFFT &fft, double c, double s, double longest) {
    derivative_power(fft, c, s);
    fft.inverse_scratch();
    const cv::Mat ac(fft.rows(), fft.cols(), CV_32F, fft.image());
    const float zero = ac.at<float>(0, 0);
    if (!(zero > 0)) return 0;
    double best = 0, best_lag = 0;
    for (double r = 2; r <= longest; r += 0.5) {
        const double v = sample_periodic(ac, r * c, r * s) / zero;
        if (v < best) { best = v; best_lag = r; }
    }
    return best_lag;
}

// Deconvolves the frame whose spectrum fft.spectrum() holds and writes the image's own
// pixels, rounded and saturated, into `out` (destroys the spectrum).
void deconvolve(vc::RealFFT &fft, const MirroredFrame &m, int width, int height, double length, double c, double s,
                double noise_to_signal, uint8_t *out) {
    wiener_box(fft, length, c, s, noise_to_signal);
    fft.inverse();
    const cv::Mat f(m.rows, m.cols, CV_32F, fft.image());
    cv::Mat dst(height, width, CV_8U, out);
    // The inverse transform is unnormalised (scaled by rows·cols).
    f(cv::Rect(m.pad_x, m.pad_y, width, height)).convertTo(dst, CV_8U, 1.0 / (double(m.rows) * double(m.cols)));
}

// Deconvolves the frame by a box of `length` along (c, s) into `out` (the frame's size).
void deblur_frame(const uint8_t *gray, int width, int height, double length, double c, double s,
                  double noise_to_signal, uint8_t *out) {
    const MirroredFrame frame(width, height, std::max(length, padded_smear), c, s);
    deconvolve(transform_mirrored(gray, width, height, frame), frame, width, height, length, c, s, noise_to_signal,
               out);
}

}  // namespace

extern "C" vc_status vc_motion_blur_estimate(const uint8_t *gray, int32_t width, int32_t height,
                                             double min_anisotropy, vc_motion_blur *out) {
    return vc::guarded([&]() -> vc_status {
        if (!out || !valid_image(gray, width, height) || !std::isfinite(min_anisotropy))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument, image smaller than 16x16 or too large");
        double c = 1, s = 0;
        if (!smear_direction(gray, width, height, min_anisotropy, out, c, s)) return VC_OK;
        const SearchWindow win(width, height);
        vc::RealFFT &fft = transform_mirrored(win.origin(gray, width), win.w, win.h,
                                              MirroredFrame(win.w, win.h, padded_smear, c, s), width);
        out->length_px = smear_length(fft, c, s, longest_smear(width, height));
        return VC_OK;
    });
}

extern "C" vc_status vc_motion_blur_remove(const uint8_t *gray, int32_t width, int32_t height, double min_anisotropy,
                                           double min_length, double noise_to_signal, vc_motion_blur *blur,
                                           uint8_t *out, int32_t *removed) {
    return vc::guarded([&]() -> vc_status {
        if (!out || !blur || !removed || !valid_image(gray, width, height) || out == gray ||
            !std::isfinite(min_anisotropy) || !std::isfinite(min_length))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL or aliased buffer, image smaller than 16x16 or too large");
        if (!(noise_to_signal > 0) || !std::isfinite(noise_to_signal))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "noise_to_signal must be > 0");
        *removed = 0;
        double c = 1, s = 0;
        if (!smear_direction(gray, width, height, min_anisotropy, blur, c, s)) return VC_OK;
        const SearchWindow win(width, height);
        const MirroredFrame frame(win.w, win.h, padded_smear, c, s);
        vc::RealFFT &fft = transform_mirrored(win.origin(gray, width), win.w, win.h, frame, width);
        const double length = smear_length(fft, c, s, longest_smear(width, height));
        blur->length_px = length;
        // Deconvolved under vc_motion_deblur's own bound: at most the image's shorter side.
        if (!(length > 0) || length < min_length || length > std::min(width, height)) return VC_OK;
        // As vc_motion_deblur does; a whole frame's spectrum is the search's when the window is
        // the frame and its borders are wide enough.
        const MirroredFrame wide(width, height, std::max(length, padded_smear), c, s);
        if (win.whole(width, height) && wide.pad_x == frame.pad_x && wide.pad_y == frame.pad_y)
            deconvolve(fft, wide, width, height, length, c, s, noise_to_signal, out);
        else
            deblur_frame(gray, width, height, length, c, s, noise_to_signal, out);
        *removed = 1;
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
        // As vc_motion_blur_remove does: the same pixels for the same smear.
        deblur_frame(gray, width, height, length, c, s, noise_to_signal, out);
        return VC_OK;
    });
}
