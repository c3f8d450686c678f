// LO-RANSAC (Chum, Matas, Kittler 2003) with MSAC scoring and an SPRT pre-emption of bad
// models (Chum & Matas 2008, "Optimal randomized RANSAC"), generic over an estimator:
//
//   struct Estimator {
//       using Model = ...;
//       static constexpr int kSampleSize;   // minimal sample
//       static constexpr int kMaxModels;    // most models one minimal sample can give
//       int num_data() const;
//       int solve(const int *sample, Model *models) const;           // minimal solver
//       // MSAC score Σ min(e², th²) over the data in order. May stop early and return
//       // anything > limit.bail_out, or +inf when the SPRT rejects the model.
//       double score(const Model &m, const ScoreLimit &limit, int *inliers) const;
//       void refine(Model *m) const;                                 // local optimisation
//   };
//
// The iteration budget adapts to the best inlier ratio w: k = log(1 − p) / log(1 − wˢ),
// and the loop stops as soon as that many samples were drawn. Nothing is allocated inside
// the loop: samples and models live on the stack.
//
// SPRT: while scoring, each point multiplies a likelihood ratio by δ/ε (consistent) or
// (1−δ)/(1−ε) (not), where ε is the inlier ratio of the best model so far and δ the
// chance that a point fits a wrong model. A model is dropped once the ratio exceeds A;
// a correct model is dropped with probability at most 1/A. Bad models are thus rejected
// after ~15 points instead of being scored over hundreds. The data must be in random
// order (the caller shuffles it) for the test's independence assumption to hold.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>

namespace vc {

struct RansacParams {
    int max_iterations = 10000;
    int min_iterations = 0;
    double confidence = 0.9999;
    bool local_optimization = true;
    bool sprt = true;
    uint64_t seed = 0x5EED;
};

struct RansacStats {
    int iterations = 0;
    int num_inliers = 0;
    int refinements = 0;
    double score = std::numeric_limits<double>::infinity();
};

// Limits passed to Estimator::score.
struct ScoreLimit {
    double bail_out = std::numeric_limits<double>::infinity();
    bool sprt = false;
    double log_consistent = 0;    // log(δ/ε)
    double log_inconsistent = 0;  // log((1−δ)/(1−ε))
    double log_threshold = 0;     // log A
};

// Small fast generator (splitmix64); deterministic for a given seed.
struct SplitMix64 {
    uint64_t s;
    explicit SplitMix64(uint64_t seed) : s(seed) {}
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n) (Lemire's multiply-shift; bias negligible for n ≪ 2³²).
    int below(int n) { return int((uint64_t(uint32_t(next() >> 32)) * uint64_t(n)) >> 32); }
};

inline int ransac_needed_iterations(int inliers, int n, int sample_size, double confidence,
                                    int max_iterations) {
    if (inliers <= 0) return max_iterations;
    const double w = double(inliers) / n;
    const double ws = std::pow(w, sample_size);
    if (ws >= 1) return 0;
    const double denom = std::log1p(-ws);
    if (denom >= 0) return max_iterations;
    const double k = std::log1p(-confidence) / denom;
    return k >= max_iterations ? max_iterations : int(std::ceil(k));
}

// Admits every model: plain RANSAC.
struct AdmitAllModels {
    template <class Model> bool operator()(const Model &) const { return true; }
};

// `admit` restricts the search to the models it returns true for, before and after local
// optimisation: a model that only refines into an excluded region is dropped, so a search
// that excludes a known optimum finds the best *other* local optimum (a rival pose), not a
// noisy copy of the excluded one.
template <class Estimator, class Admit = AdmitAllModels>
RansacStats lo_ransac(const Estimator &est, const RansacParams &opt,
                      typename Estimator::Model *best, const Admit &admit = Admit()) {
    using Model = typename Estimator::Model;
    constexpr int S = Estimator::kSampleSize;
    constexpr double kSprtDelta = 0.05;  // a point fits a wrong model (conservative)
    constexpr double kSprtA = 1000;      // ≤ 0.1 % of good models lost
    RansacStats stats;
    const int n = est.num_data();
    if (n < S) return stats;
    SplitMix64 rng(opt.seed);
    Model models[Estimator::kMaxModels];
    int sample[S];
    int needed = opt.max_iterations;
    ScoreLimit limit;
    const ScoreLimit full;  // no pre-emption: for refined models
    auto update_sprt = [&] {
        const double eps = double(stats.num_inliers) / n;
        limit.sprt = opt.sprt && eps > 2 * kSprtDelta && eps < 1;
        if (limit.sprt) {
            limit.log_consistent = std::log(kSprtDelta / eps);
            limit.log_inconsistent = std::log((1 - kSprtDelta) / (1 - eps));
            limit.log_threshold = std::log(kSprtA);
        }
    };
    for (int iter = 0; iter < opt.max_iterations; ++iter) {
        if (iter >= needed && iter >= opt.min_iterations) break;
        stats.iterations = iter + 1;
        for (int k = 0; k < S; ++k) {  // distinct indices
            while (true) {
                sample[k] = rng.below(n);
                bool dup = false;
                for (int m = 0; m < k; ++m) dup |= sample[m] == sample[k];
                if (!dup) break;
            }
        }
        const int nm = est.solve(sample, models);
        for (int m = 0; m < nm; ++m) {
            if (!admit(models[m])) continue;
            int inl = 0;
            limit.bail_out = stats.score;
            const double sc = est.score(models[m], limit, &inl);
            if (!(sc < stats.score)) continue;
            if (opt.local_optimization) {
                // Refine on the inliers; keep the result only if it scores better.
                Model refined = models[m];
                est.refine(&refined);
                ++stats.refinements;
                if (!admit(refined)) continue;
                *best = models[m];
                stats.score = sc;
                stats.num_inliers = inl;
                int rinl = 0;
                const double rsc = est.score(refined, full, &rinl);
                if (rsc < stats.score) {
                    *best = refined;
                    stats.score = rsc;
                    stats.num_inliers = rinl;
                }
            } else {
                *best = models[m];
                stats.score = sc;
                stats.num_inliers = inl;
            }
            // A good model survives the SPRT with probability ≥ 1 − 1/A: budget for it.
            const double conf = opt.sprt ? 1 - (1 - opt.confidence) * (1 - 1 / kSprtA) : opt.confidence;
            needed = ransac_needed_iterations(stats.num_inliers, n, S, conf, opt.max_iterations);
            update_sprt();
        }
    }
    return stats;
}

}  // namespace vc
