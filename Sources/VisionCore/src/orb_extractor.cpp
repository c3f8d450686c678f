#include "orb_extractor.hpp"
#include <algorithm>
#include <cmath>
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>
#include "hot_isa.hpp"
#include "idle_helpers.hpp"
#if VC_HOT_ISA_SSE41
#include <smmintrin.h>
#endif

VC_HOT_ISA_BEGIN

namespace vc {
namespace {

// Deterministic generator for the sampling pattern (fixed across platforms).
uint64_t splitmix64(uint64_t &s) {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
double uniform01(uint64_t &s) { return double(splitmix64(s) >> 11) * (1.0 / 9007199254740992.0); }

// BRIEF test pairs drawn i.i.d. Gaussian around the centre (sigma² = S²/25 for a 31-px
// patch, the best layout in Calonder et al.), kept inside radius 13 so the rotated pattern
// stays within the padded level image.
std::vector<int8_t> make_pattern() {
    std::vector<int8_t> pat;
    pat.reserve(256 * 4);
    uint64_t s = 0x0A5C10D0u;
    const double sigma = 31.0 / 5.0;
    auto point = [&](int &x, int &y) {
        while (true) {
            const double u1 = std::max(uniform01(s), 1e-12), u2 = uniform01(s);
            const double r = sigma * std::sqrt(-2 * std::log(u1));
            x = int(std::lround(r * std::cos(2 * M_PI * u2)));
            y = int(std::lround(r * std::sin(2 * M_PI * u2)));
            if (x * x + y * y <= 13 * 13) return;
        }
    };
    while (pat.size() < 256 * 4) {
        int x1, y1, x2, y2;
        point(x1, y1);
        point(x2, y2);
        if (x1 == x2 && y1 == y2) continue;
        pat.push_back(int8_t(x1)); pat.push_back(int8_t(y1));
        pat.push_back(int8_t(x2)); pat.push_back(int8_t(y2));
    }
    return pat;
}

}  // namespace

OrbExtractor::OrbExtractor(const vc_orb_params &params) : p_(params) {
    const int L = p_.n_levels;
    nominal_scale_.resize(L);
    nominal_scale_[0] = 1;
    for (int l = 1; l < L; ++l) nominal_scale_[l] = nominal_scale_[l - 1] * p_.scale_factor;
    // Geometric share per level: each level gets features in proportion to its area^(1/2).
    quota_.resize(L);
    const double f = 1.0 / p_.scale_factor;
    double per = p_.n_features * (1 - f) / (1 - std::pow(f, L));
    int sum = 0;
    for (int l = 0; l < L - 1; ++l) {
        quota_[l] = int(std::lround(per));
        sum += quota_[l];
        per *= f;
    }
    quota_[L - 1] = std::max(p_.n_features - sum, 0);

    umax_.resize(kHalfPatch + 1);
    for (int v = 0; v <= kHalfPatch; ++v)
        umax_[v] = int(std::lround(std::sqrt(double(kHalfPatch * kHalfPatch - v * v))));
    for (int v = 0; v <= kHalfPatch; ++v)
        for (int lane = 0; lane < 32; ++lane) {
            const int u = lane - kHalfPatch;
            const bool inside = std::abs(u) <= umax_[size_t(v)];
            disc_u_[v][lane] = int16_t(inside ? u : 0);
            disc_v_[v][lane] = int16_t(inside ? v : 0);
        }
    pattern_ = make_pattern();
    for (size_t k = 0; k < 512; ++k) {
        pattern_x_.push_back(pattern_[2 * k]);
        pattern_y_.push_back(pattern_[2 * k + 1]);
    }

    level_.resize(L); padded_.resize(L); blurred_.resize(L); lv_.resize(L);
    ax_.resize(L); bx_.resize(L); ay_.resize(L); by_.resize(L);
}

void OrbExtractor::build_pyramid(const cv::Mat &gray) {
    const int L = p_.n_levels;
    ax_[0] = ay_[0] = 1;
    bx_[0] = by_[0] = 0;
    for (int l = 0; l < L; ++l) {
        const cv::Mat &src = l == 0 ? gray : level_[l - 1];
        if (l > 0) {
            const cv::Size sz(int(std::lround(gray.cols / nominal_scale_[l])),
                              int(std::lround(gray.rows / nominal_scale_[l])));
            if (sz.width < 1 || sz.height < 1 || src.empty()) {
                level_[l].release();
                continue;
            }
            cv::resize(src, level_[l], sz, 0, 0, cv::INTER_LINEAR);
            // cv::resize maps pixel centres: x_src = s (x_dst + 0.5) - 0.5.
            const double sx = double(src.cols) / sz.width, sy = double(src.rows) / sz.height;
            ax_[l] = ax_[l - 1] * sx;
            bx_[l] = ax_[l - 1] * (0.5 * sx - 0.5) + bx_[l - 1];
            ay_[l] = ay_[l - 1] * sy;
            by_[l] = ay_[l - 1] * (0.5 * sy - 0.5) + by_[l - 1];
        } else {
            level_[0] = gray;  // a header over the caller's pixels, no copy
        }
        cv::copyMakeBorder(level_[l], padded_[l], kEdge, kEdge, kEdge, kEdge,
                           cv::BORDER_REFLECT_101);
    }
}

void OrbExtractor::detect_level(int level) {
    std::vector<cv::KeyPoint> &fast = lv_[size_t(level)].fast;
    std::vector<Candidate> &cand = lv_[size_t(level)].cand;
    std::vector<uint8_t> &cell_strong = lv_[size_t(level)].cell_strong;
    cand.clear();
    const cv::Mat &lev = level_[level];
    const int w = lev.cols, h = lev.rows;
    if (w < 2 * kHalfPatch || h < 2 * kHalfPatch) return;
    // FAST needs 3 px around each tested pixel: hand it the level plus 3 px of padding, so
    // corners are found over the whole level (ORB-SLAM does the same).
    const cv::Mat &pad = padded_[level];
    cv::FAST(pad(cv::Rect(kEdge - 3, kEdge - 3, w + 6, h + 6)), fast, p_.ini_fast_threshold, true,
             cv::FastFeatureDetector::TYPE_9_16);

    const int cs = p_.cell_size;
    const int ncx = std::max(1, w / cs), ncy = std::max(1, h / cs);
    cell_strong.assign(size_t(ncx * ncy), 0);
    auto cell_x0 = [&](int cx) { return cx * w / ncx; };
    auto cell_y0 = [&](int cy) { return cy * h / ncy; };
    for (const cv::KeyPoint &k : fast) {
        const float x = k.pt.x - 3, y = k.pt.y - 3;
        if (x < 0 || y < 0 || x >= w || y >= h) continue;
        const int cx = std::min(ncx - 1, int(x) * ncx / w), cy = std::min(ncy - 1, int(y) * ncy / h);
        cell_strong[size_t(cy * ncx + cx)] = 1;
        cand.push_back({x, y, k.response, int(cand.size())});
    }
    // Cells without a corner at the initial threshold retry at the minimum one, so weakly
    // textured regions still get features (ORB-SLAM's per-cell fallback).
    if (p_.min_fast_threshold >= p_.ini_fast_threshold) return;
    for (int cy = 0; cy < ncy; ++cy) {
        for (int cx = 0; cx < ncx; ++cx) {
            if (cell_strong[size_t(cy * ncx + cx)]) continue;
            const int x0 = cell_x0(cx), x1 = cell_x0(cx + 1), y0 = cell_y0(cy), y1 = cell_y0(cy + 1);
            cv::FAST(pad(cv::Rect(kEdge + x0 - 3, kEdge + y0 - 3, x1 - x0 + 6, y1 - y0 + 6)), fast,
                     p_.min_fast_threshold, true, cv::FastFeatureDetector::TYPE_9_16);
            for (const cv::KeyPoint &k : fast) {
                const float x = k.pt.x - 3 + x0, y = k.pt.y - 3 + y0;
                if (x < x0 || y < y0 || x >= x1 || y >= y1) continue;
                cand.push_back({x, y, k.response, int(cand.size())});
            }
        }
    }
}

void OrbExtractor::split(const Node &n, std::vector<Node> &out) {
    const float mx = 0.5f * (n.x0 + n.x1), my = 0.5f * (n.y0 + n.y1);
    Candidate *b = order_.data() + n.begin, *e = order_.data() + n.end;
    Candidate *m = std::partition(b, e, [&](const Candidate &c) { return c.x < mx; });
    Candidate *ml = std::partition(b, m, [&](const Candidate &c) { return c.y < my; });
    Candidate *mr = std::partition(m, e, [&](const Candidate &c) { return c.y < my; });
    const int base = n.begin;
    auto add = [&](float x0, float y0, float x1, float y1, Candidate *from, Candidate *to) {
        if (to > from)
            out.push_back({x0, y0, x1, y1, base + int(from - b), base + int(to - b)});
    };
    add(n.x0, n.y0, mx, my, b, ml);
    add(n.x0, my, mx, n.y1, ml, m);
    add(mx, n.y0, n.x1, my, m, mr);
    add(mx, my, n.x1, n.y1, mr, e);
}

void OrbExtractor::distribute(int level, int target) {
    const std::vector<Candidate> &cand = lv_[size_t(level)].cand;
    std::vector<int> &selected = lv_[size_t(level)].selected;
    selected.clear();
    const int n = int(cand.size());
    if (target <= 0 || n == 0) return;
    auto stronger = [](const Candidate &a, const Candidate &b) {
        if (a.response != b.response) return a.response > b.response;
        return a.id < b.id;  // deterministic tie-break
    };
    if (n > target) {
        const float w = float(level_[level].cols), h = float(level_[level].rows);
        // Initial square-ish nodes side by side, then quad-split the most populated nodes
        // until there are as many nodes as features wanted; keep the best corner per node.
        // Candidates are partitioned in place, so a node is a contiguous range.
        order_.assign(cand.begin(), cand.end());
        nodes_.clear();
        const int nini = std::max(1, int(std::lround(w / h)));
        const float hx = w / nini;
        Candidate *first = order_.data();
        for (int i = 0; i < nini; ++i) {
            Candidate *last = order_.data() + n;
            if (i + 1 < nini) {
                const float edge = hx * (i + 1);
                last = std::partition(first, order_.data() + n, [&](const Candidate &c) { return c.x < edge; });
            }
            if (last > first)
                nodes_.push_back({hx * i, 0, hx * (i + 1), h, int(first - order_.data()), int(last - order_.data())});
            first = last;
        }
        auto splittable = [](const Node &nd) {
            return nd.end - nd.begin > 1 && nd.x1 - nd.x0 > 1.0f;
        };
        while (int(nodes_.size()) < target) {
            int nsplit = 0;
            for (const Node &nd : nodes_) nsplit += splittable(nd);
            if (nsplit == 0) break;
            next_.clear();
            if (int(nodes_.size()) + 3 * nsplit <= target) {
                for (const Node &nd : nodes_) {
                    if (splittable(nd)) split(nd, next_);
                    else next_.push_back(nd);
                }
                nodes_.swap(next_);
                continue;
            }
            // Last round: split the most populated nodes first, stop at the target.
            std::sort(nodes_.begin(), nodes_.end(), [](const Node &a, const Node &b) {
                const int na = a.end - a.begin, nb = b.end - b.begin;
                return na != nb ? na > nb : a.begin < b.begin;  // begins are unique
            });
            size_t total = nodes_.size();
            size_t i = 0;
            for (; i < nodes_.size() && int(total) < target; ++i) {
                if (!splittable(nodes_[i])) { next_.push_back(nodes_[i]); continue; }
                const size_t before = next_.size();
                split(nodes_[i], next_);
                total += next_.size() - before - 1;
            }
            for (; i < nodes_.size(); ++i) next_.push_back(nodes_[i]);
            nodes_.swap(next_);
        }
        for (const Node &nd : nodes_) {
            const Candidate *best = &order_[size_t(nd.begin)];
            for (int k = nd.begin + 1; k < nd.end; ++k)
                if (stronger(order_[size_t(k)], *best)) best = &order_[size_t(k)];
            selected.push_back(best->id);
        }
    } else {
        for (int i = 0; i < n; ++i) selected.push_back(i);
    }
    if (int(selected.size()) > target) {
        std::nth_element(selected.begin(), selected.begin() + target, selected.end(),
                         [&](int a, int b) { return stronger(cand[size_t(a)], cand[size_t(b)]); });
        selected.resize(size_t(target));
    }
    std::sort(selected.begin(), selected.end());  // stable output order
}

float OrbExtractor::orientation(const cv::Mat &padded, float x, float y) const {
    const int cx = int(std::lround(x)) + kEdge, cy = int(std::lround(y)) + kEdge;
    const uint8_t *c = padded.ptr<uint8_t>(cy) + cx;
    const ptrdiff_t step = ptrdiff_t(padded.step1());
    int m01 = 0, m10 = 0;
#if VC_HOT_ISA_SSE41
    // The same integer sums, 8 pixels a register: each row pair ±v is read as 32 pixels
    // from u = −15 (the padding holds u = 16 too), weighted by u and by v inside the disc
    // and by 0 outside it (disc_u_, disc_v_), and multiplied and added pairwise (pmaddwd):
    // sums of (below + above)·u and (below − above)·v. A 31-px disc's sums fit 32 bits.
    const __m128i zero = _mm_setzero_si128();
    __m128i acc10 = zero, acc01 = zero;
    const auto widen = [&](const uint8_t *p, __m128i &lo0, __m128i &hi0, __m128i &lo1, __m128i &hi1) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p - kHalfPatch));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p - kHalfPatch + 16));
        lo0 = _mm_cvtepu8_epi16(a); hi0 = _mm_unpackhi_epi8(a, zero);
        lo1 = _mm_cvtepu8_epi16(b); hi1 = _mm_unpackhi_epi8(b, zero);
    };
    const auto weights = [](const int16_t (&row)[32], int k) {
        return _mm_load_si128(reinterpret_cast<const __m128i *>(row + 8 * k));
    };
    {
        __m128i p[4];
        widen(c, p[0], p[1], p[2], p[3]);
        for (int k = 0; k < 4; ++k) acc10 = _mm_add_epi32(acc10, _mm_madd_epi16(p[k], weights(disc_u_[0], k)));
    }
    for (int v = 1; v <= kHalfPatch; ++v) {
        __m128i below[4], above[4];
        widen(c + v * step, below[0], below[1], below[2], below[3]);
        widen(c - v * step, above[0], above[1], above[2], above[3]);
        for (int k = 0; k < 4; ++k) {
            acc10 = _mm_add_epi32(acc10, _mm_madd_epi16(_mm_add_epi16(below[k], above[k]), weights(disc_u_[v], k)));
            acc01 = _mm_add_epi32(acc01, _mm_madd_epi16(_mm_sub_epi16(below[k], above[k]), weights(disc_v_[v], k)));
        }
    }
    const auto total = [](__m128i a) {
        a = _mm_add_epi32(a, _mm_shuffle_epi32(a, _MM_SHUFFLE(1, 0, 3, 2)));
        a = _mm_add_epi32(a, _mm_shuffle_epi32(a, _MM_SHUFFLE(2, 3, 0, 1)));
        return _mm_cvtsi128_si32(a);
    };
    m10 = total(acc10);
    m01 = total(acc01);
#else
    for (int u = -kHalfPatch; u <= kHalfPatch; ++u) m10 += u * c[u];
    for (int v = 1; v <= kHalfPatch; ++v) {
        int vsum = 0;
        const int d = umax_[size_t(v)];
        for (int u = -d; u <= d; ++u) {
            const int below = c[u + v * step], above = c[u - v * step];
            vsum += below - above;
            m10 += u * (below + above);
        }
        m01 += v * vsum;
    }
#endif
    float a = cv::fastAtan2(float(m01), float(m10));
    return a >= 360.f ? a - 360.f : a;
}

void OrbExtractor::describe(const cv::Mat &blurred, float x, float y, float angle_deg,
                            uint8_t *out) const {
    const int cx = int(std::lround(x)) + kEdge, cy = int(std::lround(y)) + kEdge;
    const uint8_t *c = blurred.ptr<uint8_t>(cy) + cx;
    const int step = int(blurred.step1());
    const float a = float(angle_deg * M_PI / 180.0);
    const float ca = std::cos(a), sa = std::sin(a);
    // Rotate the 512 sample points to pixel offsets first, four at a time, then compare.
    alignas(16) int offset[512];
    const float *px = pattern_x_.data(), *py = pattern_y_.data();
#if VC_HOT_ISA_SSE41
    const __m128 vca = _mm_set1_ps(ca), vsa = _mm_set1_ps(sa);
    const __m128i vstep = _mm_set1_epi32(step);
    for (int k = 0; k < 512; k += 4) {
        const __m128 x4 = _mm_loadu_ps(px + k), y4 = _mm_loadu_ps(py + k);
        const __m128i rx = _mm_cvtps_epi32(_mm_sub_ps(_mm_mul_ps(x4, vca), _mm_mul_ps(y4, vsa)));
        const __m128i ry = _mm_cvtps_epi32(_mm_add_ps(_mm_mul_ps(x4, vsa), _mm_mul_ps(y4, vca)));
        _mm_store_si128(reinterpret_cast<__m128i *>(offset + k), _mm_add_epi32(_mm_mullo_epi32(ry, vstep), rx));
    }
#else
    for (int k = 0; k < 512; ++k)
        offset[k] = cvRound(px[k] * sa + py[k] * ca) * step + cvRound(px[k] * ca - py[k] * sa);
#endif
    for (int byte = 0; byte < VC_DESCRIPTOR_BYTES; ++byte) {
        const int *o = offset + byte * 16;
        uint8_t v = 0;
        for (int bit = 0; bit < 8; ++bit) v |= uint8_t((c[o[2 * bit]] < c[o[2 * bit + 1]]) << bit);
        out[byte] = v;
    }
}

void OrbExtractor::describe_level(int l, vc_keypoint *kps, uint8_t *descriptors) const {
    const Level &lv = lv_[size_t(l)];
    const float size = float(kPatchSize * nominal_scale_[size_t(l)]);
    int out = lv.first_output;
    for (int idx : lv.selected) {
        const Candidate &cd = lv.cand[size_t(idx)];
        const float angle = orientation(padded_[size_t(l)], cd.x, cd.y);
        vc_keypoint &k = kps[out];
        k.x = float(ax_[size_t(l)] * cd.x + bx_[size_t(l)]);
        k.y = float(ay_[size_t(l)] * cd.y + by_[size_t(l)]);
        k.size = size;
        k.angle = angle;
        k.response = cd.response;
        k.octave = l;
        describe(blurred_[size_t(l)], cd.x, cd.y, angle, descriptors + size_t(out) * VC_DESCRIPTOR_BYTES);
        ++out;
    }
}

int OrbExtractor::extract(const cv::Mat &gray, vc_keypoint *kps, uint8_t *descriptors,
                          int capacity) {
    if (gray.cols < 2 * kHalfPatch + 2 || gray.rows < 2 * kHalfPatch + 2) return 0;
    const int L = p_.n_levels;
    build_pyramid(gray);
    // Corners and the blurred copy of each level depend only on the pyramid: 2L tasks,
    // largest first (level 0 is the largest).
    parallel_for(2 * L, [&](int task) {
        const int l = task / 2;
        if (task % 2 == 0) {
            detect_level(l);  // an empty level gets no candidates
        } else if (!level_[size_t(l)].empty()) {
            cv::GaussianBlur(padded_[size_t(l)], blurred_[size_t(l)], cv::Size(7, 7), 2, 2,
                             cv::BORDER_REFLECT_101);
        }
    });
    // A level short of corners hands the rest of its quota to the next: serial.
    int written = 0, carry = 0;
    for (int l = 0; l < L; ++l) {
        Level &lv = lv_[size_t(l)];
        lv.selected.clear();
        lv.first_output = written;
        if (written >= capacity || level_[size_t(l)].empty()) continue;
        const int target = std::min(quota_[size_t(l)] + carry, capacity - written);
        distribute(l, target);
        carry = quota_[size_t(l)] + carry - int(lv.selected.size());
        if (carry < 0) carry = 0;
        written += int(lv.selected.size());
    }
    parallel_for(L, [&](int l) { describe_level(l, kps, descriptors); });
    level_[0].release();  // it pointed at the caller's pixels
    return written;
}

}  // namespace vc

VC_HOT_ISA_END
