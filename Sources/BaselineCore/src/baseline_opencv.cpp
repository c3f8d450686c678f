// OpenCV reference pipelines for the benchmarks (see vc_baseline.h).
#include "vc_baseline.h"
#include "vc_guarded.hpp"
#include <algorithm>
#include <cmath>
#include <vector>
#include <opencv2/calib3d.hpp>
#include <opencv2/features2d.hpp>

struct vc_baseline_orb {
    cv::Ptr<cv::ORB> orb;
    std::vector<cv::KeyPoint> kps;
    cv::Mat desc;
};

extern "C" vc_status vc_baseline_pnp_ransac(const vc_pinhole *camera, const double *points2d,
                                            const double *points3d, int32_t n,
                                            const vc_baseline_pnp_options *options,
                                            vc_pose_result *result, uint8_t *inlier_mask) {
    return vc::guarded([&]() -> vc_status {
        if (!camera || !options || !result || n < 0 || (n > 0 && (!points2d || !points3d)))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument");
        *result = vc_pose_result{};
        if (n < 4) return vc::fail(VC_ERR_NO_SOLUTION, "fewer than 4 correspondences");
        std::vector<cv::Point3d> obj(static_cast<size_t>(n));
        std::vector<cv::Point2d> img(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) {
            obj[size_t(i)] = cv::Point3d(points3d[3 * i], points3d[3 * i + 1], points3d[3 * i + 2]);
            img[size_t(i)] = cv::Point2d(points2d[2 * i], points2d[2 * i + 1]);
        }
        const cv::Matx33d K(camera->fx, 0, camera->cx, 0, camera->fy, camera->cy, 0, 0, 1);
        cv::Mat rvec, tvec;
        std::vector<int> inliers;
        const bool ok = cv::solvePnPRansac(obj, img, K, cv::noArray(), rvec, tvec, false,
                                           options->max_iterations, float(options->threshold_px),
                                           options->confidence, inliers, cv::SOLVEPNP_AP3P);
        if (!ok || inliers.size() < 4) return vc::fail(VC_ERR_NO_SOLUTION, "solvePnPRansac failed");
        if (options->refine) {
            std::vector<cv::Point3d> oi;
            std::vector<cv::Point2d> ii;
            oi.reserve(inliers.size());
            ii.reserve(inliers.size());
            for (int k : inliers) {
                oi.push_back(obj[size_t(k)]);
                ii.push_back(img[size_t(k)]);
            }
            cv::solvePnPRefineLM(oi, ii, K, cv::noArray(), rvec, tvec);
        }
        cv::Matx33d R;
        cv::Rodrigues(rvec, R);
        const cv::Vec3d t(tvec.at<double>(0), tvec.at<double>(1), tvec.at<double>(2));
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 3; ++c) {
                result->R_cw[3 * r + c] = R(r, c);
                result->R_wc[3 * c + r] = R(r, c);
            }
            result->t_cw[r] = t[r];
        }
        const cv::Vec3d C = -(R.t() * t);
        for (int k = 0; k < 3; ++k) result->t_wc[k] = C[k];
        // Inliers of the final pose, as vc_pose_estimate reports them.
        double sse = 0;
        int ni = 0;
        const double th2 = options->threshold_px * options->threshold_px;
        for (int i = 0; i < n; ++i) {
            const cv::Vec3d Z = R * cv::Vec3d(obj[size_t(i)]) + t;
            bool in = false;
            if (Z[2] > 0) {
                const double rx = camera->fx * Z[0] / Z[2] + camera->cx - img[size_t(i)].x;
                const double ry = camera->fy * Z[1] / Z[2] + camera->cy - img[size_t(i)].y;
                const double r2 = rx * rx + ry * ry;
                if (r2 < th2) { in = true; sse += r2; ++ni; }
            }
            if (inlier_mask) inlier_mask[i] = in;
        }
        result->num_inliers = ni;
        result->rms_px = ni ? std::sqrt(sse / ni) : 0;
        return VC_OK;
    });
}

extern "C" vc_status vc_baseline_orb_create(int32_t n_features, vc_baseline_orb **out) {
    return vc::guarded([&]() -> vc_status {
        if (!out || n_features < 1) return vc::fail(VC_ERR_INVALID_ARGUMENT, "bad argument");
        *out = new vc_baseline_orb{cv::ORB::create(n_features), {}, {}};
        return VC_OK;
    });
}

extern "C" void vc_baseline_orb_destroy(vc_baseline_orb *orb) { delete orb; }

extern "C" vc_status vc_baseline_orb_detect(vc_baseline_orb *orb, const uint8_t *gray, int32_t width,
                                            int32_t height, int32_t stride, float *xy,
                                            int32_t capacity, int32_t *count) {
    return vc::guarded([&]() -> vc_status {
        if (!orb || !gray || !count || width <= 0 || height <= 0 || stride < width)
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "bad argument");
        const cv::Mat img(height, width, CV_8UC1, const_cast<uint8_t *>(gray), size_t(stride));
        orb->orb->detectAndCompute(img, cv::noArray(), orb->kps, orb->desc);
        *count = int32_t(orb->kps.size());
        if (xy)
            for (int i = 0; i < std::min(capacity, *count); ++i) {
                xy[2 * i] = orb->kps[size_t(i)].pt.x;
                xy[2 * i + 1] = orb->kps[size_t(i)].pt.y;
            }
        return VC_OK;
    });
}
