// The reference OpenCV pipeline of `arcloud bench real`, with a map of its own (see vc_reference_peer.h).
#include "vc_reference_peer.h"
#include "peer_pose.hpp"
#include "vc_guarded.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <new>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/features2d.hpp>

namespace {

struct PosedView {
    std::vector<cv::Point2f> pixels;  // undistorted
    cv::Mat descriptors;
    cv::Matx33d K, R;
    cv::Vec3d t, centre;
};

cv::Matx33d intrinsics(const double K[4]) { return {K[0], 0, K[2], 0, K[1], K[3], 0, 0, 1}; }

cv::Ptr<cv::Feature2D> make_detector(const vc_reference_params &p) {
    if (p.feature == VC_REFERENCE_SIFT) return cv::SIFT::create(p.features);
    return cv::ORB::create(p.features);
}

int norm_of(const vc_reference_params &p) { return p.feature == VC_REFERENCE_SIFT ? cv::NORM_L2 : cv::NORM_HAMMING; }

// Features of one photo, keypoints undistorted to pinhole pixels.
void detect(cv::Feature2D &detector, const vc_reference_image &im, std::vector<cv::Point2f> &pixels,
            cv::Mat &descriptors) {
    const cv::Mat gray(im.height, im.width, CV_8U, const_cast<uint8_t *>(im.pixels));
    std::vector<cv::KeyPoint> keypoints;
    detector.detectAndCompute(gray, cv::noArray(), keypoints, descriptors);
    pixels.clear();
    if (keypoints.empty()) return;
    std::vector<cv::Point2f> raw;
    for (const auto &k : keypoints) raw.push_back(k.pt);
    const cv::Matx33d K = intrinsics(im.K);
    const std::vector<double> dist(im.distortion, im.distortion + 4);
    cv::undistortPoints(raw, pixels, K, dist, cv::noArray(), K);
}

// Reprojection error (pixels) of X in a view, or infinity behind the camera.
double reprojection(const PosedView &v, const cv::Vec3d &X, const cv::Point2f &observed) {
    const cv::Vec3d c = v.R * X + v.t;
    if (c[2] <= 0) return INFINITY;
    const cv::Vec3d p = v.K * c;
    return std::hypot(p[0] / p[2] - observed.x, p[1] / p[2] - observed.y);
}

}  // namespace

struct vc_reference_peer {
    vc_reference_params params;
    cv::Ptr<cv::Feature2D> detector;
    cv::Ptr<cv::BFMatcher> matcher;     // photo pairs, while the map is built
    cv::Mat map_descriptors;            // one row per observation
    std::unique_ptr<vc::peer::chunked_matcher> map_matcher;  // queries, over map_descriptors
    std::vector<int> point_of_row;
    std::vector<cv::Point3f> points;
};

extern "C" vc_reference_peer *vc_reference_peer_create(const vc_reference_image *map_images, int32_t n,
                                                       vc_reference_params params, int32_t *points_out) {
    if (!map_images || n < 2 || params.features <= 0 || params.neighbours <= 0) return nullptr;
    try {
        auto *peer = new vc_reference_peer();
        peer->params = params;
        peer->detector = make_detector(params);
        peer->matcher = cv::BFMatcher::create(norm_of(params), false);
        std::vector<PosedView> views(n);
        for (int32_t i = 0; i < n; ++i) {
            const auto &im = map_images[i];
            auto &v = views[i];
            detect(*peer->detector, im, v.pixels, v.descriptors);
            v.K = intrinsics(im.K);
            v.R = cv::Matx33d(im.R_cw);
            v.t = cv::Vec3d(im.t_cw[0], im.t_cw[1], im.t_cw[2]);
            v.centre = -(v.R.t() * v.t);
        }
        // Pairs: each photo with its nearest photos by camera centre, each pair once.
        std::vector<std::pair<int, int>> pairs;
        for (int i = 0; i < n; ++i) {
            std::vector<int> order;
            for (int j = 0; j < n; ++j) if (j != i) order.push_back(j);
            std::sort(order.begin(), order.end(), [&](int a, int b) {
                return cv::norm(views[a].centre - views[i].centre) < cv::norm(views[b].centre - views[i].centre);
            });
            for (int k = 0; k < std::min<int>(params.neighbours, int(order.size())); ++k) {
                auto p = std::minmax(i, order[k]);
                if (std::find(pairs.begin(), pairs.end(), std::make_pair(p.first, p.second)) == pairs.end())
                    pairs.emplace_back(p.first, p.second);
            }
        }
        std::vector<cv::Mat> rows;
        for (const auto &[a, b] : pairs) {
            const auto &va = views[a], &vb = views[b];
            if (va.descriptors.empty() || vb.descriptors.empty()) continue;
            std::vector<std::vector<cv::DMatch>> knn;
            peer->matcher->knnMatch(va.descriptors, vb.descriptors, knn, 2);
            cv::Matx34d Pa, Pb;
            for (int r = 0; r < 3; ++r) {
                for (int c = 0; c < 3; ++c) { Pa(r, c) = va.R(r, c); Pb(r, c) = vb.R(r, c); }
                Pa(r, 3) = va.t[r]; Pb(r, 3) = vb.t[r];
            }
            Pa = va.K * Pa; Pb = vb.K * Pb;
            for (const auto &m : knn) {
                if (m.size() < 2 || !(m[0].distance < params.ratio * m[1].distance)) continue;
                const cv::Point2f xa = va.pixels[m[0].queryIdx], xb = vb.pixels[m[0].trainIdx];
                cv::Mat X4;
                cv::triangulatePoints(Pa, Pb, std::vector<cv::Point2f>{xa}, std::vector<cv::Point2f>{xb}, X4);
                const double w = X4.at<float>(3);
                if (std::abs(w) < 1e-12) continue;
                const cv::Vec3d X(X4.at<float>(0) / w, X4.at<float>(1) / w, X4.at<float>(2) / w);
                // Epipolar/reprojection check in both views, and some parallax.
                if (reprojection(va, X, xa) > 2 || reprojection(vb, X, xb) > 2) continue;
                const cv::Vec3d ra = X - va.centre, rb = X - vb.centre;
                const double cosine = ra.dot(rb) / (cv::norm(ra) * cv::norm(rb));
                if (cosine > std::cos(1.0 * CV_PI / 180)) continue;
                const int id = int(peer->points.size());
                peer->points.emplace_back(float(X[0]), float(X[1]), float(X[2]));
                rows.push_back(va.descriptors.row(m[0].queryIdx));
                rows.push_back(vb.descriptors.row(m[0].trainIdx));
                peer->point_of_row.push_back(id);
                peer->point_of_row.push_back(id);
            }
        }
        if (!rows.empty()) cv::vconcat(rows, peer->map_descriptors);
        peer->map_matcher = std::make_unique<vc::peer::chunked_matcher>(norm_of(params));
        peer->map_matcher->set_train(peer->map_descriptors);
        if (points_out) *points_out = int32_t(peer->points.size());
        return peer;
    } catch (...) {
        return nullptr;
    }
}

extern "C" void vc_reference_peer_destroy(vc_reference_peer *peer) { delete peer; }

extern "C" vc_status vc_reference_peer_localize(vc_reference_peer *peer, const vc_reference_image *query,
                                                vc_peer_result *out) {
    if (!peer || !query || !query->pixels || query->width <= 0 || query->height <= 0 || !out)
        return VC_ERR_INVALID_ARGUMENT;
    *out = vc_peer_result{};
    return vc::guarded([&]() -> vc_status {
        auto t0 = std::chrono::steady_clock::now();
        std::vector<cv::Point2f> pixels;
        cv::Mat descriptors;
        detect(*peer->detector, *query, pixels, descriptors);
        std::vector<cv::Point2f> image_points;
        std::vector<cv::Point3f> object_points;
        if (!descriptors.empty() && !peer->map_descriptors.empty()) {
            // Each point keeps several descriptors: the ratio test compares the best with
            // the best descriptor of another point.
            std::vector<std::vector<cv::DMatch>> knn;
            peer->map_matcher->knn_match(descriptors, knn, 4);
            for (const auto &m : knn) {
                if (m.empty()) continue;
                const int best = peer->point_of_row[m[0].trainIdx];
                const cv::DMatch *second = nullptr;
                for (size_t k = 1; k < m.size(); ++k)
                    if (peer->point_of_row[m[k].trainIdx] != best) { second = &m[k]; break; }
                if (second && !(m[0].distance < peer->params.ratio * second->distance)) continue;
                image_points.push_back(pixels[m[0].queryIdx]);
                object_points.push_back(peer->points[best]);
            }
        }
        out->matches = int32_t(image_points.size());
        out->match_ms = vc::peer::ms_since(t0);
        // At least 6 matches: the reference script's own rule.
        vc::peer::solve_and_write_pose(object_points, image_points, intrinsics(query->K),
                                       {peer->params.max_iterations, peer->params.ransac_threshold_px, 0.999,
                                        peer->params.min_inliers, 6},
                                       out);
        return VC_OK;
    });
}
