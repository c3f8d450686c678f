// ORB extractor: scale pyramid, FAST with a per-cell threshold fallback, quadtree
// distribution per level (as ORB-SLAM), intensity-centroid angle, steered BRIEF.
#pragma once
#include "vc_features.h"
#include <cstdint>
#include <vector>
#include <opencv2/core.hpp>

namespace vc {

class OrbExtractor {
public:
    explicit OrbExtractor(const vc_orb_params &params);

    // Extracts into caller buffers; returns the number written. Scratch buffers persist.
    // Levels are detected, blurred and described in parallel when the calling thread has
    // idle-core helpers (idle_helpers.hpp); the output is the same either way.
    int extract(const cv::Mat &gray, vc_keypoint *kps, uint8_t *descriptors, int capacity);

    static constexpr int kEdge = 19;       // level padding: patch radius + blur margin
    static constexpr int kHalfPatch = 15;  // orientation disc radius
    static constexpr int kPatchSize = 31;

private:
    struct Candidate {
        float x, y;  // level pixel coordinates
        float response;
        int id;      // index in cand_ (deterministic tie-break)
    };
    struct Node {
        float x0, y0, x1, y1;
        int begin, end;  // range in order_ (candidates are partitioned in place)
    };

    // What one level needs between the phases of `extract`; levels are worked on in
    // parallel, so each has its own.
    struct Level {
        std::vector<cv::KeyPoint> fast;
        std::vector<Candidate> cand;
        std::vector<uint8_t> cell_strong;
        std::vector<int> selected;  // indices into cand, in output order
        int first_output = 0;       // where its features start in the output
    };

    void build_pyramid(const cv::Mat &gray);
    void detect_level(int level);
    void distribute(int level, int target);
    void describe_level(int level, vc_keypoint *kps, uint8_t *descriptors) const;
    float orientation(const cv::Mat &padded, float x, float y) const;
    void describe(const cv::Mat &blurred, float x, float y, float angle_deg, uint8_t *out) const;
    void split(const Node &n, std::vector<Node> &out);

    vc_orb_params p_;
    std::vector<double> nominal_scale_;
    std::vector<int> quota_;
    std::vector<int> umax_;
    // The disc's rows as 16-bit weights over u = −15…16 (32 lanes a row, 0 outside the
    // disc): u for the moment m10, v for m01; the vectorised `orientation` reads them.
    alignas(16) int16_t disc_u_[kHalfPatch + 1][32];
    alignas(16) int16_t disc_v_[kHalfPatch + 1][32];
    std::vector<int8_t> pattern_;  // 256 pairs × (x1, y1, x2, y2)
    std::vector<float> pattern_x_, pattern_y_;  // the 512 points, for vectorised rotation

    // Per-level buffers kept between frames.
    std::vector<cv::Mat> level_, padded_, blurred_;
    std::vector<double> ax_, bx_, ay_, by_;  // level → level-0 pixel: x0 = ax*x + bx
    std::vector<Level> lv_;
    // Scratch of the (serial) distribution, kept between frames.
    std::vector<Candidate> order_;
    std::vector<Node> nodes_, next_;
};

}  // namespace vc
