// Guided candidate search by projection (see vc_projection_search.h).
#include "vc_projection_search.h"
#include "status_guard.hpp"

#include <algorithm>
#include <cmath>
#include <new>
#include <vector>

namespace {

// A map point as the grid stores it: its projection, its index, and its position in the
// search order (which settles ties, as if points were offered one by one in that order).
struct Projected {
    double u, v;
    int32_t point, order;
};

struct Hit {
    float d2;
    int32_t point, order;
};

// Hit order for the top-K: nearer first; at equal distance, earlier in the search order.
inline bool nearer(const Hit &a, const Hit &b) { return a.d2 < b.d2 || (a.d2 == b.d2 && a.order < b.order); }

// Candidate order: nearer first; at equal distance, the lower point index.
inline bool before_in_list(const Hit &a, const Hit &b) { return a.d2 < b.d2 || (a.d2 == b.d2 && a.point < b.point); }

// The grid has at most about this many cells (see phase 2).
constexpr double kGridCells = 8192;

// Most hits a keypoint sorts by insertion, and the most it keeps that way (beyond,
// std::nth_element and std::sort).
constexpr int32_t kInsertionHits = 12;

// Puts x into the sorted h[0..j], shifting the later ones up by one (h[j] is overwritten).
template <class Less> void insert_sorted(Hit *h, int32_t j, const Hit x, Less less) {
    for (; j > 0 && less(x, h[j - 1]); --j) h[j] = h[j - 1];
    h[j] = x;
}

template <class Less> void insertion_sort(Hit *h, int32_t n, Less less) {
    for (int32_t i = 1; i < n; ++i) insert_sorted(h, i, h[i], less);
}

// Moves the k nearest of h[0..n) (by `nearer`) into h[0..k), k < n: the first k sorted,
// then each later hit inserted in place of the k-th when it beats it. Most hits do not, so
// this costs about one comparison a hit.
void keep_nearest(Hit *h, int32_t n, int32_t k) {
    insertion_sort(h, k, nearer);
    for (int32_t i = k; i < n; ++i)
        if (nearer(h[i], h[k - 1])) insert_sorted(h, k - 1, h[i], nearer);
}

// Per-thread scratch so repeated calls do not allocate once warmed up.
struct Scratch {
    std::vector<Projected> projected, grid;  // grid: projected sorted by cell
    std::vector<int32_t> cell_start, cell_of_point;
    std::vector<Hit> near;                   // one keypoint's hits
};

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
    return vc_guarded([&]() -> vc_status {
        // Two phases, keypoint by keypoint in the second: each keypoint keeps its top-K in
        // a few registers' worth of scratch instead of scattering hits over all keypoints.
        // 1. Project the points that can land near a keypoint (within the radius of the
        //    keypoints' bounding box: keypoints may lie outside the image when undistorted).
        double kx0 = 0, ky0 = 0, kx1 = width, ky1 = height;
        for (int32_t k = 0; k < n_kp; ++k) {
            kx0 = std::min(kx0, double(kps[2 * k])); kx1 = std::max(kx1, double(kps[2 * k]));
            ky0 = std::min(ky0, double(kps[2 * k + 1])); ky1 = std::max(ky1, double(kps[2 * k + 1]));
        }
        const double radius = o->radius_px, r2 = radius * radius;
        const double min_depth = o->min_depth, max_depth = o->max_depth, min_view_cos = o->min_view_cos;
        const double fx = camera->fx, fy = camera->fy, pcx = camera->cx, pcy = camera->cy;
        // Camera centre C = -R^T t: viewing directions run from it to the points.
        const double cxw = -(R[0] * t[0] + R[3] * t[1] + R[6] * t[2]);
        const double cyw = -(R[1] * t[0] + R[4] * t[1] + R[7] * t[2]);
        const double czw = -(R[2] * t[0] + R[5] * t[1] + R[8] * t[2]);
        auto &projected = scratch.projected;
        projected.clear();
        const int32_t n_search = subset ? n_subset : n_points;
        for (int32_t s = 0; s < n_search; ++s) {
            const int32_t i = subset ? subset[s] : s;
            const double X = pts[3 * i], Y = pts[3 * i + 1], Z = pts[3 * i + 2];
            const double z = R[6] * X + R[7] * Y + R[8] * Z + t[2];
            if (z < min_depth || z > max_depth) continue;
            const double x = R[0] * X + R[1] * Y + R[2] * Z + t[0];
            const double y = R[3] * X + R[4] * Y + R[5] * Z + t[1];
            const double u = fx * x / z + pcx, v = fy * y / z + pcy;
            if (!(u >= kx0 - radius && v >= ky0 - radius && u <= kx1 + radius && v <= ky1 + radius))
                continue;  // far from every keypoint (or not finite): cheapest test first
            if (normals) {
                const double dx = X - cxw, dy = Y - cyw, dz = Z - czw;
                const double dn = std::sqrt(dx * dx + dy * dy + dz * dz);
                const double c = (dx * normals[3 * i] + dy * normals[3 * i + 1] + dz * normals[3 * i + 2]) / dn;
                if (c < min_view_cos) continue;
            }
            projected.push_back({u, v, i, s});
        }
        // 2. Bucket the projections into half-radius cells (a stable counting sort: each
        //    cell keeps the search order). A keypoint then scans the 5x5 cells around it
        //    (6.25 r² of image instead of 9 r² with radius-sized cells); the cells of one
        //    row are one contiguous run. A narrow pass (a few pixels) would need tens of
        //    thousands of such cells, to clear, sum and scan for a few hits: when half the
        //    radius makes more than kGridCells cells, they are a radius wide (or a
        //    kGridCells-th of the image) and the keypoint scans the 3x3 around it (cells
        //    further apart than ceil(radius / cell) hold nothing within the radius). The
        //    cell size changes which projections are read, not which lie within the
        //    radius: the lists are the same.
        double cell = radius / 2;
        int span = 2;
        if ((width / cell + 1) * (height / cell + 1) > kGridCells) {
            cell = std::max(radius, std::sqrt(double(width) * double(height) / kGridCells));
            span = int(std::ceil(radius / cell));
        }
        const int gw = int(std::ceil(width / cell)) + 1, gh = int(std::ceil(height / cell)) + 1;
        // Clamped in floating point first: a far-off coordinate must not overflow int.
        // Points and keypoints outside the grid sit in its edge cells. For q ≥ 0, int(q)
        // truncates to floor(q) without a call to floor (the baseline ISA has no inline
        // rounding), and q ≥ n − 1 exactly when floor(q) ≥ n − 1.
        auto cell_index = [&](double c, int n) -> int {
            const double q = c / cell;
            return q >= 0 ? (q >= double(n - 1) ? n - 1 : int(q)) : 0;  // NaN lands in cell 0
        };
        auto &cs = scratch.cell_start;
        auto &cell_of = scratch.cell_of_point;
        auto &grid = scratch.grid;
        const size_t np = projected.size();
        cs.assign(size_t(gw) * gh + 1, 0);
        cell_of.resize(np);
        grid.resize(np);
        for (size_t j = 0; j < np; ++j) {
            cell_of[j] = cell_index(projected[j].v, gh) * gw + cell_index(projected[j].u, gw);
            cs[size_t(cell_of[j]) + 1]++;
        }
        for (size_t c = 1; c < cs.size(); ++c) cs[c] += cs[c - 1];
        for (size_t j = 0; j < np; ++j) grid[size_t(cs[size_t(cell_of[j])]++)] = projected[j];
        for (size_t c = cs.size() - 1; c > 0; --c) cs[c] = cs[c - 1];  // back to cell starts
        cs[0] = 0;

        // 3. Per keypoint: the K nearest projections within the radius, nearest first
        //    (ties: lower point index).
        const int32_t K = o->max_per_keypoint;
        // Every projection in range goes into `near` (appended without a branch: the
        // in-radius test is a coin flip the branch predictor loses), then the K nearest
        // are selected from those few.
        scratch.near.resize(np + 1);
        Hit *near = scratch.near.data();
        const Projected *cells = grid.data();
        const int32_t *start = cs.data();
        int32_t written = 0;
        offsets[0] = 0;
        for (int32_t k = 0; k < n_kp; ++k) {
            const double kx = kps[2 * k], ky = kps[2 * k + 1];
            const int cx = cell_index(kx, gw), cy = cell_index(ky, gh);
            const int x0 = std::max(cx - span, 0), x1 = std::min(cx + span, gw - 1);
            int32_t m = 0;
            for (int gy = std::max(cy - span, 0); gy <= std::min(cy + span, gh - 1); ++gy) {
                const int row = gy * gw;
                const int32_t first = start[row + x0], end = start[row + x1 + 1];
                for (int32_t j = first; j < end; ++j) {
                    const Projected &p = cells[j];
                    const double du = kx - p.u, dv = ky - p.v;
                    const double d2 = du * du + dv * dv;
                    near[m] = {float(d2), p.point, p.order};
                    m += d2 <= r2;
                }
            }
            // The K nearest, then in candidate order. Both orders are total (order and point
            // are unique), so the lists do not depend on how they are selected and sorted: a
            // keypoint keeps a handful of hits, which insertion orders faster than
            // std::nth_element and std::sort set up.
            if (m > K) {
                if (K <= kInsertionHits) {
                    keep_nearest(near, m, K);
                } else {
                    std::nth_element(near, near + K - 1, near + m, nearer);
                }
                m = K;
            }
            if (m <= kInsertionHits) {
                insertion_sort(near, m, before_in_list);
            } else {
                std::sort(near, near + m, before_in_list);
            }
            if (written + m > capacity) return VC_ERR_INVALID_ARGUMENT;
            for (int32_t j = 0; j < m; ++j) candidates[written++] = near[j].point;
            offsets[k + 1] = written;
        }
        *count = written;
        return VC_OK;
    });
}
