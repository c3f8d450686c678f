// Guided candidate search by projection (see vc_projection_search.h).
#include "vc_projection_search.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <vector>

namespace {

struct Hit {
    float d2;
    int32_t point;
};

// A keypoint as the grid stores it: position inline, so a cell's keypoints are one
// contiguous run (the inner loop reads no index array).
struct GridKeypoint {
    double x, y;
    int32_t index;
};

// A keypoint's top-K hits (unordered) and which of them is farthest once full, so a hit
// that cannot enter costs one comparison.
struct TopK {
    int32_t count = 0, worst = 0;
};

// Per-thread scratch so repeated calls do not allocate once warmed up. Hits are kept as
// a fixed top-K per keypoint in one flat array (K = max_per_keypoint): no per-keypoint
// vectors, no selection pass at the end.
struct Scratch {
    std::vector<int32_t> cell_start, cell_fill;
    std::vector<GridKeypoint> grid;  // keypoints sorted by cell
    std::vector<Hit> hits;           // n_kp * K
    std::vector<TopK> tops;
};

// Offers a hit to a keypoint's top-K; replaces the farthest when full (the first of equal
// farthest ones, so the kept set depends only on the order points are offered in).
inline void offer(Hit *top, TopK &state, int32_t k_max, Hit h) {
    if (state.count < k_max) {
        top[state.count++] = h;
        if (state.count < k_max) return;
    } else {
        if (!(h.d2 < top[state.worst].d2)) return;
        top[state.worst] = h;
    }
    int32_t worst = 0;
    for (int32_t j = 1; j < k_max; ++j)
        if (top[j].d2 > top[worst].d2) worst = j;
    state.worst = worst;
}

thread_local Scratch scratch;

}  // namespace

extern "C" vc_status vc_projection_search(const vc_pinhole *camera, const double *R, const double *t,
                                          const double *pts, const float *normals, int32_t n_points,
                                          const int32_t *subset, int32_t n_subset, const float *kps,
                                          int32_t n_kp, int32_t width, int32_t height,
                                          const vc_projection_search_options *o, int32_t *offsets,
                                          int32_t *candidates, int32_t capacity, int32_t *count) {
    if (!camera || !R || !t || !o || !offsets || !count || n_points < 0 || n_kp < 0 || width <= 0 ||
        height <= 0 || !(o->radius_px > 0) || o->max_per_keypoint <= 0 || capacity < 0)
        return VC_ERR_INVALID_ARGUMENT;
    if ((n_points > 0 && !pts) || (n_kp > 0 && !kps) || (capacity > 0 && !candidates)) return VC_ERR_INVALID_ARGUMENT;
    if (subset && n_subset < 0) return VC_ERR_INVALID_ARGUMENT;
    for (int32_t s = 0; subset && s < n_subset; ++s)
        if (subset[s] < 0 || subset[s] >= n_points) return VC_ERR_INVALID_ARGUMENT;
    try {
        // Bucket keypoints into a grid of half-radius cells, sorted by cell: a projected
        // point visits the 5x5 cells around it (6.25 r² of image instead of 9 r² with
        // radius-sized cells), each a contiguous run of keypoints.
        const double cell = o->radius_px / 2;
        const int gw = int(std::ceil(width / cell)) + 1, gh = int(std::ceil(height / cell)) + 1;
        auto &cs = scratch.cell_start;
        auto &fill = scratch.cell_fill;
        auto &grid = scratch.grid;
        cs.assign(size_t(gw) * gh + 1, 0);
        grid.resize(size_t(n_kp));
        // Clamped in floating point first: a far-off coordinate must not overflow int.
        auto cell_index = [&](double x, int n) -> int {
            const double c = std::floor(x / cell);
            return c >= 0 ? int(std::min(c, double(n - 1))) : 0;  // NaN lands in cell 0
        };
        auto cell_of = [&](float x, float y) -> int { return cell_index(y, gh) * gw + cell_index(x, gw); };
        // Keypoints may lie outside the image (undistorted near the border): the points
        // worth projecting are those within the radius of the keypoints' bounding box.
        double kx0 = 0, ky0 = 0, kx1 = width, ky1 = height;
        for (int32_t k = 0; k < n_kp; ++k) {
            kx0 = std::min(kx0, double(kps[2 * k])); kx1 = std::max(kx1, double(kps[2 * k]));
            ky0 = std::min(ky0, double(kps[2 * k + 1])); ky1 = std::max(ky1, double(kps[2 * k + 1]));
            cs[cell_of(kps[2 * k], kps[2 * k + 1]) + 1]++;
        }
        for (size_t c = 1; c < cs.size(); ++c) cs[c] += cs[c - 1];
        fill.assign(cs.begin(), cs.end() - 1);
        for (int32_t k = 0; k < n_kp; ++k)
            grid[size_t(fill[cell_of(kps[2 * k], kps[2 * k + 1])]++)] = {kps[2 * k], kps[2 * k + 1], k};
        const int32_t K = o->max_per_keypoint;
        auto &hits = scratch.hits;
        auto &tops = scratch.tops;
        hits.resize(size_t(n_kp) * size_t(K));
        tops.assign(size_t(n_kp), TopK{});

        const double r2 = o->radius_px * o->radius_px;
        // Camera centre C = -R^T t: viewing directions run from it to the points.
        const double cxw = -(R[0] * t[0] + R[3] * t[1] + R[6] * t[2]);
        const double cyw = -(R[1] * t[0] + R[4] * t[1] + R[7] * t[2]);
        const double czw = -(R[2] * t[0] + R[5] * t[1] + R[8] * t[2]);
        const int32_t n_search = subset ? n_subset : n_points;
        for (int32_t s = 0; s < n_search; ++s) {
            const int32_t i = subset ? subset[s] : s;
            const double X = pts[3 * i], Y = pts[3 * i + 1], Z = pts[3 * i + 2];
            const double z = R[6] * X + R[7] * Y + R[8] * Z + t[2];
            if (z < o->min_depth || z > o->max_depth) continue;
            const double x = R[0] * X + R[1] * Y + R[2] * Z + t[0];
            const double y = R[3] * X + R[4] * Y + R[5] * Z + t[1];
            const double u = camera->fx * x / z + camera->cx, v = camera->fy * y / z + camera->cy;
            if (!(u >= kx0 - o->radius_px && v >= ky0 - o->radius_px && u <= kx1 + o->radius_px &&
                  v <= ky1 + o->radius_px))
                continue;  // far from every keypoint (or not finite): cheapest test first
            if (normals) {
                const double dx = X - cxw, dy = Y - cyw, dz = Z - czw;
                const double dn = std::sqrt(dx * dx + dy * dy + dz * dz);
                const double c = (dx * normals[3 * i] + dy * normals[3 * i + 1] + dz * normals[3 * i + 2]) / dn;
                if (c < o->min_view_cos) continue;
            }
            // Keypoints outside the grid sit in its edge cells: clamp before widening.
            const int cx = cell_index(u, gw), cy = cell_index(v, gh);
            const int x0 = std::max(cx - 2, 0), x1 = std::min(cx + 2, gw - 1);
            for (int gy = std::max(cy - 2, 0); gy <= std::min(cy + 2, gh - 1); ++gy) {
                // The cells x0..x1 of one row are one contiguous run of keypoints.
                const int row = gy * gw;
                for (int32_t j = cs[row + x0]; j < cs[row + x1 + 1]; ++j) {
                    const GridKeypoint &g = grid[size_t(j)];
                    const double du = g.x - u, dv = g.y - v;
                    const double d2 = du * du + dv * dv;
                    if (d2 <= r2) offer(&hits[size_t(g.index) * K], tops[size_t(g.index)], K, {float(d2), i});
                }
            }
        }
        int32_t written = 0;
        offsets[0] = 0;
        for (int32_t k = 0; k < n_kp; ++k) {
            Hit *top = &hits[size_t(k) * K];
            const int32_t m = tops[size_t(k)].count;
            // Nearest first (insertion sort of at most K; ties by point index).
            for (int32_t a = 1; a < m; ++a)
                for (int32_t b = a; b > 0 && (top[b].d2 < top[b - 1].d2 ||
                                              (top[b].d2 == top[b - 1].d2 && top[b].point < top[b - 1].point)); --b)
                    std::swap(top[b], top[b - 1]);
            if (written + m > capacity) return VC_ERR_INVALID_ARGUMENT;
            for (int32_t j = 0; j < m; ++j) candidates[written++] = top[j].point;
            offsets[k + 1] = written;
        }
        *count = written;
        return VC_OK;
    } catch (const std::bad_alloc &) {
        return VC_ERR_OUT_OF_MEMORY;
    } catch (...) {
        return VC_ERR_INTERNAL;
    }
}
