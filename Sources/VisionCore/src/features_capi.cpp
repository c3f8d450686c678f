// C ABI for ORB extraction and keypoint undistortion.
#include "vc_features.h"
#include "vc_guarded.hpp"
#include "extractor_checks.hpp"
#include "orb_extractor.hpp"
#include <opencv2/calib3d.hpp>

struct vc_orb_extractor {
    vc::OrbExtractor impl;
};

extern "C" vc_orb_params vc_orb_default_params(void) {
    return vc_orb_params{1000, 1.2f, 8, 20, 7, 30};
}

extern "C" vc_status vc_orb_create(const vc_orb_params *params, vc_orb_extractor **out) {
    return vc::guarded([&]() -> vc_status {
        if (!params || !out) return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument");
        *out = nullptr;
        const vc_orb_params &p = *params;
        if (vc_status s = vc::check_extractor_params(p.n_features, p.scale_factor, p.n_levels); s != VC_OK) return s;
        if (p.min_fast_threshold < 1 || p.ini_fast_threshold > 255 ||
            p.min_fast_threshold > p.ini_fast_threshold)
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "FAST thresholds must satisfy 1 <= min <= ini <= 255");
        if (p.cell_size < 8 || p.cell_size > 512)
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "cell_size must be in 8...512");
        *out = new vc_orb_extractor{vc::OrbExtractor(p)};
        return VC_OK;
    });
}

extern "C" void vc_orb_destroy(vc_orb_extractor *extractor) { delete extractor; }

extern "C" vc_status vc_orb_extract(vc_orb_extractor *extractor, const uint8_t *gray,
                                    int32_t width, int32_t height, int32_t stride,
                                    vc_keypoint *kps, uint8_t *descriptors, int32_t capacity,
                                    int32_t *count) {
    return vc::guarded([&]() -> vc_status {
        if (vc_status s = vc::check_extract_args(extractor, gray, width, height, stride, kps, descriptors, capacity, count);
            s != VC_OK)
            return s;
        const cv::Mat img(height, width, CV_8UC1, const_cast<uint8_t *>(gray), size_t(stride));
        *count = extractor->impl.extract(img, kps, descriptors, capacity);
        return VC_OK;
    });
}

extern "C" vc_status vc_undistort_points(const vc_intrinsics *in, const double *xy_in,
                                         double *xy_out, int32_t n) {
    return vc::guarded([&]() -> vc_status {
        if (!in || (n > 0 && (!xy_in || !xy_out)) || n < 0)
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument or negative count");
        if (!(in->fx > 0 && in->fy > 0))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "focal lengths must be positive");
        if (in->n_distortion != 0 && in->n_distortion != 4 && in->n_distortion != 5)
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "distortion needs 0, 4 or 5 coefficients");
        if (n == 0) return VC_OK;
        bool any = false;
        for (int i = 0; i < in->n_distortion; ++i) any |= in->distortion[i] != 0;
        if (!any) {
            if (xy_out != xy_in) std::copy(xy_in, xy_in + 2 * size_t(n), xy_out);
            return VC_OK;
        }
        const cv::Matx33d K(in->fx, 0, in->cx, 0, in->fy, in->cy, 0, 0, 1);
        const cv::Mat D(1, in->n_distortion, CV_64F, const_cast<double *>(in->distortion));
        const cv::Mat src(n, 1, CV_64FC2, const_cast<double *>(xy_in));
        cv::Mat dst;
        // More iterations than OpenCV's default 5: wide-angle phone lenses need them.
        cv::undistortPoints(src, dst, K, D, cv::noArray(), K,
                            cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 30, 1e-12));
        std::copy(dst.ptr<double>(), dst.ptr<double>() + 2 * size_t(n), xy_out);
        return VC_OK;
    });
}
