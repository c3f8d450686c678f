// Internal to the renderer (render*.cpp): the texture object behind vc_texture.
#pragma once
#include <opencv2/core.hpp>
#include <cstdint>
#include <vector>

struct vc_texture {
    // Level 0 is the texture; each next level is half the size (Gaussian pyrDown), down to 1 px.
    // CV_8UC3, RGB.
    std::vector<cv::Mat> levels;
};

namespace vc_render_detail {

// Builds the mip pyramid of `base` (CV_8UC3) into `tex`.
void build_mips(vc_texture &tex, const cv::Mat &base);

// SplitMix64: the counter-based generator behind every random number the renderer uses,
// so results do not depend on thread count or call order.
inline uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

// Uniform in [0, 1) from a hash value.
inline double unit(uint64_t h) { return double(h >> 11) * (1.0 / 9007199254740992.0); }

}  // namespace vc_render_detail
