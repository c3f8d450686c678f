// The OpenCV-only peer pipeline for `arcloud bench localize` (see vc_peer.h).
#include "vc_peer.h"
#include "peer_pose.hpp"
#include "vc_guarded.hpp"

#include <chrono>
#include <new>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>

struct vc_peer {
    vc::peer::chunked_matcher matcher{cv::NORM_HAMMING};
    cv::Mat map_descriptors;  // n x 32, CV_8U; the matcher's train set
    std::vector<cv::Point3f> points;
    vc_peer_params params;
};

extern "C" vc_peer *vc_peer_create(const uint8_t *descriptors, const double *points_xyz, int32_t n,
                                   vc_peer_params params) {
    if (!descriptors || !points_xyz || n <= 0) return nullptr;
    try {
        auto *p = new vc_peer();
        p->map_descriptors = cv::Mat(n, 32, CV_8U, const_cast<uint8_t *>(descriptors)).clone();
        p->matcher.set_train(p->map_descriptors);
        p->points.reserve(n);
        for (int32_t i = 0; i < n; ++i)
            p->points.emplace_back(float(points_xyz[3 * i]), float(points_xyz[3 * i + 1]), float(points_xyz[3 * i + 2]));
        p->params = params;
        return p;
    } catch (...) {
        return nullptr;
    }
}

extern "C" void vc_peer_destroy(vc_peer *peer) { delete peer; }

extern "C" vc_status vc_peer_localize(vc_peer *peer, const float *keypoints_xy, const uint8_t *descriptors_in,
                                      int32_t n, const double K[4], vc_peer_result *out) {
    if (!peer || !K || !out || n < 0 || (n > 0 && (!keypoints_xy || !descriptors_in))) return VC_ERR_INVALID_ARGUMENT;
    *out = vc_peer_result{};
    return vc::guarded([&]() -> vc_status {
        const cv::Mat descriptors(n, 32, CV_8U, const_cast<uint8_t *>(descriptors_in));
        auto t0 = std::chrono::steady_clock::now();
        std::vector<cv::Point2f> image_points;
        std::vector<cv::Point3f> object_points;
        if (!descriptors.empty()) {
            std::vector<std::vector<cv::DMatch>> knn;
            peer->matcher.knn_match(descriptors, knn, 2);
            for (const auto &m : knn) {
                if (m.size() == 2 && m[0].distance < peer->params.ratio * m[1].distance) {
                    const int q = m[0].queryIdx;
                    image_points.emplace_back(keypoints_xy[2 * q], keypoints_xy[2 * q + 1]);
                    object_points.push_back(peer->points[m[0].trainIdx]);
                }
            }
        }
        out->matches = int32_t(image_points.size());
        out->match_ms = vc::peer::ms_since(t0);

        const cv::Matx33d camera(K[0], 0, K[2], 0, K[1], K[3], 0, 0, 1);
        vc::peer::solve_and_write_pose(object_points, image_points, camera,
                                       {peer->params.max_iterations, peer->params.ransac_threshold_px,
                                        peer->params.confidence, peer->params.min_inliers, 4},
                                       out);
        return VC_OK;
    });
}
