// What the two OpenCV peers (peer_localizer.cpp: on arcloud's map; reference_peer.cpp: with
// a map of its own) share once they have their 2D-3D matches: OpenCV's RANSAC, the pose
// refined on its inliers and written into the result, and the stage timer. One copy, so the
// two peers cannot drift apart; they differ only in the parameters they pass.
#pragma once

#include "vc_peer.h"

#include <chrono>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/features2d.hpp>

namespace vc::peer {

/// k-NN brute-force matching against a map of any size. `cv::BFMatcher` asserts that one
/// train image has fewer than 2^18 rows (knnMatchImpl packs the image index into the top
/// bits of an int), so a map of 262,144 descriptors or more threw `cv::Exception` on every
/// query. The rows go in as a collection of chunks below that bound; OpenCV keeps the k
/// best over all chunks, so the matches are those of one big train set.
class chunked_matcher {
public:
    explicit chunked_matcher(int norm) : matcher_(norm, false) {}

    /// Sets the train descriptors (shared, not copied: keep `train` alive and unchanged).
    void set_train(const cv::Mat &train) {
        matcher_.clear();
        std::vector<cv::Mat> chunks;
        for (int r = 0; r < train.rows; r += chunk_rows) chunks.push_back(train.rowRange(r, std::min(train.rows, r + chunk_rows)));
        if (!chunks.empty()) matcher_.add(chunks);
    }

    /// The k nearest train rows of each query row; `trainIdx` is the row in the whole
    /// train set, `imgIdx` is 0.
    void knn_match(const cv::Mat &query, std::vector<std::vector<cv::DMatch>> &knn, int k) {
        knn.clear();
        if (matcher_.getTrainDescriptors().empty()) return;
        matcher_.knnMatch(query, knn, k);
        for (auto &row : knn)
            for (auto &m : row) { m.trainIdx += m.imgIdx * chunk_rows; m.imgIdx = 0; }
    }

    static constexpr int chunk_rows = (1 << 18) - 1;

private:
    cv::BFMatcher matcher_;
};

inline double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// Refines (rvec, tvec) with Levenberg-Marquardt on the RANSAC inliers and writes the
/// world-to-camera pose, the inlier count and `localized = 1` into `out`.
inline void write_refined_pose(const std::vector<cv::Point3f> &object_points,
                               const std::vector<cv::Point2f> &image_points, const std::vector<int> &inliers,
                               const cv::Matx33d &K, cv::Mat &rvec, cv::Mat &tvec, vc_peer_result *out) {
    std::vector<cv::Point3f> in_obj;
    std::vector<cv::Point2f> in_img;
    in_obj.reserve(inliers.size());
    in_img.reserve(inliers.size());
    for (int i : inliers) {
        in_obj.push_back(object_points[i]);
        in_img.push_back(image_points[i]);
    }
    cv::solvePnPRefineLM(in_obj, in_img, K, cv::noArray(), rvec, tvec);
    cv::Matx33d R;
    cv::Rodrigues(rvec, R);
    for (int i = 0; i < 9; ++i) out->R_cw[i] = R.val[i];
    for (int i = 0; i < 3; ++i) out->t_cw[i] = tvec.at<double>(i);
    out->inliers = int32_t(inliers.size());
    out->localized = 1;
}

/// The parameters of the peers' pose stage.
struct ransac_params {
    int max_iterations;
    double threshold_px;
    double confidence;
    /// A pose needs at least this many RANSAC inliers.
    int min_inliers;
    /// With fewer tentative matches RANSAC is not tried.
    size_t min_matches;
};

/// OpenCV's RANSAC with the AP3P minimal solver over the matches, then `write_refined_pose`
/// when it finds at least `p.min_inliers` inliers; the stage's time goes to `out->solve_ms`.
/// `out` is left unlocalized otherwise.
inline void solve_and_write_pose(const std::vector<cv::Point3f> &object_points,
                                 const std::vector<cv::Point2f> &image_points, const cv::Matx33d &K,
                                 const ransac_params &p, vc_peer_result *out) {
    const auto t0 = std::chrono::steady_clock::now();
    if (image_points.size() >= p.min_matches) {
        cv::Mat rvec, tvec;
        std::vector<int> inliers;
        bool ok = cv::solvePnPRansac(object_points, image_points, K, cv::noArray(), rvec, tvec, false,
                                     p.max_iterations, float(p.threshold_px), p.confidence, inliers,
                                     cv::SOLVEPNP_AP3P);
        if (ok && int32_t(inliers.size()) >= p.min_inliers) {
            write_refined_pose(object_points, image_points, inliers, K, rvec, tvec, out);
        }
    }
    out->solve_ms = ms_since(t0);
}

}  // namespace vc::peer
