// C ABI for SIFT keypoints with binarized descriptors (vc_sift.h).
#include "vc_sift.h"
#include "vc_guarded.hpp"
#include "extractor_checks.hpp"
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>
#include <algorithm>
#include <cmath>
#include <vector>

struct vc_sift_extractor {
    cv::Ptr<cv::SIFT> sift;
    vc_sift_params params;
    // Kept between frames: no per-frame allocation once their capacity suffices.
    std::vector<cv::KeyPoint> keypoints;
    cv::Mat descriptors;
    cv::Mat reduced;  // the image reduced to VC_SIFT_MAX_PIXELS, when it is larger
    std::vector<int> order;  // keypoint indices, strongest first
};

extern "C" void vc_sift_binarize(const float *descriptor, uint8_t *out) {
    float sorted[128];
    std::copy(descriptor, descriptor + 128, sorted);
    std::nth_element(sorted, sorted + 64, sorted + 128);
    const float median = sorted[64];
    std::nth_element(sorted + 65, sorted + 96, sorted + 128);
    const float upperQuartile = sorted[96];
    std::fill(out, out + VC_DESCRIPTOR_BYTES, uint8_t(0));
    for (int j = 0; j < 128; ++j) {
        const uint8_t bit = uint8_t(1u << (j & 7));
        if (descriptor[j] > median) out[j >> 3] |= bit;
        if (descriptor[j] > upperQuartile) out[16 + (j >> 3)] |= bit;
    }
}

extern "C" vc_status vc_sift_create(const vc_sift_params *params, vc_sift_extractor **out) {
    return vc::guarded([&]() -> vc_status {
        if (!params || !out) return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument");
        *out = nullptr;
        const vc_sift_params &p = *params;
        if (vc_status s = vc::check_extractor_params(p.n_features, p.scale_factor, p.n_levels); s != VC_OK) return s;
        *out = new vc_sift_extractor{cv::SIFT::create(p.n_features), p, {}, {}, {}, {}};
        return VC_OK;
    });
}

extern "C" void vc_sift_destroy(vc_sift_extractor *extractor) { delete extractor; }

extern "C" vc_status vc_sift_extract(vc_sift_extractor *extractor, const uint8_t *gray,
                                     int32_t width, int32_t height, int32_t stride,
                                     vc_keypoint *kps, uint8_t *descriptors, int32_t capacity,
                                     int32_t *count) {
    return vc::guarded([&]() -> vc_status {
        if (vc_status s = vc::check_extract_args(extractor, gray, width, height, stride, kps, descriptors, capacity, count);
            s != VC_OK)
            return s;
        // As ORB: an image too small to hold one descriptor window has no features.
        if (width < 32 || height < 32 || capacity == 0) return VC_OK;
        const cv::Mat img(height, width, CV_8UC1, const_cast<uint8_t *>(gray), size_t(stride));
        auto &kp = extractor->keypoints;
        kp.clear();
        // SIFT's memory grows with the image (its scale space starts at twice the size): a
        // larger image is reduced first and its keypoints mapped back.
        const double pixels = double(width) * double(height);
        if (pixels > VC_SIFT_MAX_PIXELS) {
            const double s = std::sqrt(VC_SIFT_MAX_PIXELS / pixels);
            const cv::Size reduced(std::max(1, int(width * s)), std::max(1, int(height * s)));
            cv::resize(img, extractor->reduced, reduced, 0, 0, cv::INTER_AREA);
            extractor->sift->detectAndCompute(extractor->reduced, cv::noArray(), kp, extractor->descriptors);
            const float sx = float(width) / float(reduced.width), sy = float(height) / float(reduced.height);
            for (auto &k : kp) {
                k.pt.x = (k.pt.x + 0.5f) * sx - 0.5f;
                k.pt.y = (k.pt.y + 0.5f) * sy - 0.5f;
                k.size *= 0.5f * (sx + sy);
            }
        } else {
            extractor->sift->detectAndCompute(img, cv::noArray(), kp, extractor->descriptors);
        }
        // cv::SIFT keeps the n_features strongest but returns them in scale-space order (which
        // its threads may vary): strongest first, ties by position and scale, gives ORB's
        // order and the same output on every run.
        auto &order = extractor->order;
        order.resize(kp.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
        std::sort(order.begin(), order.end(), [&](int a, int b) {
            const cv::KeyPoint &p = kp[size_t(a)], &q = kp[size_t(b)];
            if (p.response != q.response) return p.response > q.response;
            if (p.pt.y != q.pt.y) return p.pt.y < q.pt.y;
            if (p.pt.x != q.pt.x) return p.pt.x < q.pt.x;
            if (p.size != q.size) return p.size < q.size;
            if (p.angle != q.angle) return p.angle < q.angle;
            return a < b;
        });
        const int n = std::min<int>(int(kp.size()), capacity);
        const float logScale = std::log(extractor->params.scale_factor);
        for (int i = 0; i < n; ++i) {
            const int k = order[size_t(i)];
            const cv::KeyPoint &q = kp[size_t(k)];
            const long level = std::lround(std::log(std::max(q.size, 1e-3f) / 3.2f) / logScale);
            const int32_t octave = int32_t(std::clamp<long>(level, 0, extractor->params.n_levels - 1));
            kps[i] = vc_keypoint{q.pt.x, q.pt.y, q.size, q.angle, q.response, octave};
            vc_sift_binarize(extractor->descriptors.ptr<float>(k), descriptors + size_t(VC_DESCRIPTOR_BYTES) * size_t(i));
        }
        *count = n;
        return VC_OK;
    });
}
