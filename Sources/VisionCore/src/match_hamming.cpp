// Hamming matching with hardware popcount (hot_isa.hpp).
#include "vc_match.h"
#include "vc_guarded.hpp"
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>
#include "hot_isa.hpp"

VC_HOT_ISA_BEGIN

namespace {

inline int hamming(const uint8_t *a, const uint8_t *b) {
    uint64_t x[4], y[4];
    std::memcpy(x, a, 32);
    std::memcpy(y, b, 32);
    return __builtin_popcountll(x[0] ^ y[0]) + __builtin_popcountll(x[1] ^ y[1]) +
           __builtin_popcountll(x[2] ^ y[2]) + __builtin_popcountll(x[3] ^ y[3]);
}

constexpr int kNone = 257;

// The trackers keep a query's nearest train descriptor and the second distance. An offer
// at or above d2 changes neither (offer_run relies on it to skip whole blocks).
struct Best {
    int train = -1, d1 = kNone, d2 = kNone;
    inline void offer(int t, int d) {
        if (d < d1) { d2 = d1; d1 = d; train = t; }
        else if (d < d2) d2 = d;
    }
};

// As Best, but train descriptors come in groups (several descriptors of one map point):
// the second distance is the best of any *other* group, so two descriptors of the same
// point never fail each other's ratio test.
struct BestOfGroups {
    const int32_t *groups;
    int train = -1, group = -1, d1 = kNone, d2 = kNone;
    inline void offer(int t, int d) {
        const int g = groups[t];
        if (g == group) {
            if (d < d1) { d1 = d; train = t; }
        } else if (d < d1) {
            d2 = d1; d1 = d; train = t; group = g;
        } else if (d < d2) {
            d2 = d;
        }
    }
};

template <class B>
bool passes(const B &b, const vc_match_options &o) {
    if (b.train < 0) return false;
    if (o.max_distance < 256 && b.d1 > o.max_distance) return false;
    if (o.ratio > 0 && b.d2 != kNone && !(float(b.d1) < o.ratio * float(b.d2))) return false;
    return true;
}

// Scratch reused across calls on a thread: no allocation per call once warmed up.
thread_local std::vector<int> col_dist, col_query;

// One-to-one: a train descriptor goes to its closest query (ties: lower index). Returns
// how many of out[0..n) remain (compacted in place, order kept).
int keep_mutual(vc_match *out, int n, int nt) {
    col_dist.assign(size_t(nt), kNone);
    col_query.assign(size_t(nt), -1);
    for (int m = 0; m < n; ++m) {
        const size_t t = size_t(out[m].train);
        if (out[m].distance < col_dist[t]) {
            col_dist[t] = out[m].distance;
            col_query[t] = out[m].query;
        }
    }
    int k = 0;
    for (int m = 0; m < n; ++m)
        if (col_query[size_t(out[m].train)] == out[m].query) out[k++] = out[m];
    return k;
}

// Checks CSR lists over n queries: offsets[0] == 0, never decreasing, and an items array
// whenever there is an item. VC_OK or the failure to return.
vc_status check_lists(const int32_t *offsets, int n, const void *items, const char *what) {
    if (n > 0 && offsets[0] != 0) return vc::fail(VC_ERR_INVALID_ARGUMENT, (std::string(what) + " offsets[0] must be 0").c_str());
    for (int i = 0; i < n; ++i)
        if (offsets[i + 1] < offsets[i])
            return vc::fail(VC_ERR_INVALID_ARGUMENT, (std::string(what) + " offsets must not decrease").c_str());
    if (n > 0 && offsets[n] > 0 && !items) return vc::fail(VC_ERR_INVALID_ARGUMENT, (std::string(what) + " is NULL").c_str());
    return VC_OK;
}

// Offers train descriptors [j0, j1) to `b` in order, four at a time: a block whose four
// distances all reach the tracker's d2 cannot change it and is not offered. Once the first
// few hundred candidates have set d2, nearly every block is skipped, and the four
// distances are independent work the CPU overlaps (a quarter less time per candidate on a
// whole-map match than offering each distance as it comes; the same matches).
template <class B>
inline void offer_run(B &b, const uint8_t *q, const uint8_t *train, int j0, int j1) {
    int j = j0;
    for (; j + 4 <= j1; j += 4) {
        const uint8_t *t = train + size_t(j) * 32;
        const int d0 = hamming(q, t), d1 = hamming(q, t + 32), d2 = hamming(q, t + 64), d3 = hamming(q, t + 96);
        if (std::min(std::min(d0, d1), std::min(d2, d3)) >= b.d2) continue;
        b.offer(j, d0); b.offer(j + 1, d1); b.offer(j + 2, d2); b.offer(j + 3, d3);
    }
    for (; j < j1; ++j) b.offer(j, hamming(q, train + size_t(j) * 32));
}

// Each query's nearest candidate, kept when it passes the options; `fresh()` makes the
// per-query tracker (Best, or BestOfGroups for grouped train descriptors). `candidates(i,
// offer, offer_range)` passes query i's candidates one index at a time (`offer(j)`) or as
// runs of consecutive indices (`offer_range(j0, j1)`).
template <class Candidates, class Fresh>
vc_status nearest_of_candidates(const uint8_t *query, int nq, const uint8_t *train, int nt, const vc_match_options &o,
                                Candidates candidates, Fresh fresh, const char *range_error, vc_match *out,
                                int32_t *count) {
    int n = 0;
    for (int i = 0; i < nq; ++i) {
        const uint8_t *q = query + size_t(i) * 32;
        auto b = fresh();
        if (!candidates(i, [&](int j) { b.offer(j, hamming(q, train + size_t(j) * 32)); },
                        [&](int j0, int j1) { offer_run(b, q, train, j0, j1); }))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, range_error);
        if (passes(b, o)) out[n++] = vc_match{i, b.train, b.d1, b.d2};
    }
    if (o.mutual) n = keep_mutual(out, n, nt);
    *count = n;
    return VC_OK;
}

// The guided and bucketed matchers: each query keeps its nearest among the train indices
// `candidates(i, offer)` passes to `offer` (returning false for an index out of range, which
// fails the call with `range_error`) if it passes the options, then the mutual filter runs.
// With `groups` (one group id per train descriptor) the ratio test compares groups.
template <class Candidates>
vc_status match_candidates(const uint8_t *query, int nq, const uint8_t *train, int nt, const vc_match_options &o,
                           Candidates candidates, const char *range_error, vc_match *out, int32_t *count,
                           const int32_t *groups = nullptr) {
    if (groups)
        return nearest_of_candidates(query, nq, train, nt, o, candidates, [&] { return BestOfGroups{groups}; },
                                     range_error, out, count);
    return nearest_of_candidates(query, nq, train, nt, o, candidates, [] { return Best{}; }, range_error, out, count);
}

}  // namespace

extern "C" int32_t vc_hamming_distance(const uint8_t *a, const uint8_t *b) { return hamming(a, b); }

extern "C" vc_status vc_match_bruteforce(const uint8_t *query, int32_t nq, const uint8_t *train,
                                         int32_t nt, const vc_match_options *options,
                                         vc_match *out, int32_t *count) {
    return vc::guarded([&]() -> vc_status {
        if (count) *count = 0;
        if (!options || !count || nq < 0 || nt < 0 || (nq > 0 && (!query || !out)) ||
            (nt > 0 && !train))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument or negative count");
        const vc_match_options o = *options;
        const bool mutual = o.mutual != 0;
        if (mutual) {
            col_dist.assign(size_t(nt), kNone);
            col_query.assign(size_t(nt), -1);
        }
        int n = 0;
        for (int i = 0; i < nq; ++i) {
            const uint8_t *q = query + size_t(i) * 32;
            Best b;
            for (int j = 0; j < nt; ++j) {
                const int d = hamming(q, train + size_t(j) * 32);
                b.offer(j, d);
                if (mutual && d < col_dist[size_t(j)]) {
                    col_dist[size_t(j)] = d;
                    col_query[size_t(j)] = i;
                }
            }
            if (!passes(b, o)) continue;
            out[n++] = vc_match{i, b.train, b.d1, b.d2};
        }
        if (mutual) {
            int k = 0;
            for (int m = 0; m < n; ++m)
                if (col_query[size_t(out[m].train)] == out[m].query) out[k++] = out[m];
            n = k;
        }
        *count = n;
        return VC_OK;
    });
}

extern "C" vc_status vc_match_guided(const uint8_t *query, int32_t nq, const uint8_t *train,
                                     int32_t nt, const int32_t *offsets,
                                     const int32_t *candidates, const vc_match_options *options,
                                     vc_match *out, int32_t *count) {
    return vc::guarded([&]() -> vc_status {
        if (count) *count = 0;
        if (!options || !count || nq < 0 || nt < 0 || (nq > 0 && (!query || !out || !offsets)))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument or negative count");
        if (vc_status s = check_lists(offsets, nq, candidates, "candidates"); s != VC_OK) return s;
        const auto listed = [&](int i, auto &&offer, auto &&) {
            for (int k = offsets[i]; k < offsets[i + 1]; ++k) {
                const int j = candidates[k];
                if (j < 0 || j >= nt) return false;
                offer(j);
            }
            return true;
        };
        return match_candidates(query, nq, train, nt, *options, listed, "candidate index out of range", out, count);
    });
}

extern "C" vc_status vc_match_buckets(const uint8_t *query, int32_t nq, const uint8_t *train, int32_t nt,
                                      const int32_t *bucket_offsets, int32_t n_buckets,
                                      const int32_t *query_offsets, const int32_t *query_buckets,
                                      const vc_match_options *options, vc_match *out, int32_t *count) {
    return vc_match_buckets_grouped(query, nq, train, nt, bucket_offsets, n_buckets, query_offsets, query_buckets,
                                    nullptr, options, out, count);
}

extern "C" vc_status vc_match_buckets_grouped(const uint8_t *query, int32_t nq, const uint8_t *train, int32_t nt,
                                              const int32_t *bucket_offsets, int32_t n_buckets,
                                              const int32_t *query_offsets, const int32_t *query_buckets,
                                              const int32_t *train_groups, const vc_match_options *options,
                                              vc_match *out, int32_t *count) {
    return vc_match_buckets_masked(query, nq, train, nt, bucket_offsets, n_buckets, query_offsets, query_buckets,
                                   train_groups, nullptr, options, out, count);
}

extern "C" vc_status vc_match_buckets_masked(const uint8_t *query, int32_t nq, const uint8_t *train, int32_t nt,
                                             const int32_t *bucket_offsets, int32_t n_buckets,
                                             const int32_t *query_offsets, const int32_t *query_buckets,
                                             const int32_t *train_groups, const uint8_t *train_mask,
                                             const vc_match_options *options, vc_match *out, int32_t *count) {
    return vc::guarded([&]() -> vc_status {
        if (count) *count = 0;
        if (!options || !count || nq < 0 || nt < 0 || n_buckets < 0 || !bucket_offsets ||
            (nq > 0 && (!query || !out || !query_offsets)))
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument or negative count");
        if (bucket_offsets[0] != 0 || bucket_offsets[n_buckets] > nt)
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "bucket offsets must run from 0 to at most n_train");
        if (vc_status s = check_lists(bucket_offsets, n_buckets, train, "buckets"); s != VC_OK) return s;
        if (vc_status s = check_lists(query_offsets, nq, query_buckets, "query buckets"); s != VC_OK) return s;
        const auto bucketed = [&](int i, auto &&offer, auto &&offer_range) {
            for (int k = query_offsets[i]; k < query_offsets[i + 1]; ++k) {
                const int bucket = query_buckets[k];
                if (bucket < 0 || bucket >= n_buckets) return false;
                if (train_mask) {
                    for (int j = bucket_offsets[bucket]; j < bucket_offsets[bucket + 1]; ++j)
                        if (train_mask[j]) offer(j);
                } else {
                    offer_range(bucket_offsets[bucket], bucket_offsets[bucket + 1]);
                }
            }
            return true;
        };
        return match_candidates(query, nq, train, nt, *options, bucketed, "bucket index out of range", out, count,
                                train_groups);
    });
}

VC_HOT_ISA_END
