// FFTW plans, made once per size and shared by every thread. FFTW's planner is not
// thread-safe (making and destroying plans goes under one lock); executing a plan is, on
// any arrays of the planning arrays' alignment (fftwf_malloc's, as every buffer here).
#include "real_fft.hpp"
#include <map>
#include <mutex>
#include <new>
#include <utility>

namespace vc {
namespace {

struct Plans {
    fftwf_plan forward, inverse;
};

// Made once and never destroyed: plans may be executing on other threads while the
// process exits, and the plans stay reachable (not leaks) to the end.
std::mutex &planner_lock() {
    static std::mutex *lock = new std::mutex;
    return *lock;
}
// Sizes come from the blur stage's padded frame sizes (2^a·3^b·5^c, multiples of 8): a few
// per camera. The cap bounds what a stream of odd sizes could make the cache hold.
std::map<std::pair<int, int>, Plans> &plan_cache() {
    static auto *cache = new std::map<std::pair<int, int>, Plans>;
    return *cache;
}
constexpr size_t max_cached_plans = 64;

// FFTW_ESTIMATE: the planner's heuristics, no timing runs. Measured as fast as
// FFTW_MEASURE's plans on these sizes, and deterministic from run to run.
Plans make_plans(int rows, int cols) {
    float *in = fftwf_alloc_real(size_t(rows) * size_t(cols));
    fftwf_complex *out = fftwf_alloc_complex(size_t(rows) * size_t(cols / 2 + 1));
    if (!in || !out) {
        fftwf_free(in); fftwf_free(out);
        throw std::bad_alloc();
    }
    Plans p{fftwf_plan_dft_r2c_2d(rows, cols, in, out, FFTW_ESTIMATE),
            fftwf_plan_dft_c2r_2d(rows, cols, out, in, FFTW_ESTIMATE)};
    fftwf_free(in); fftwf_free(out);
    if (!p.forward || !p.inverse) {
        if (p.forward) fftwf_destroy_plan(p.forward);
        if (p.inverse) fftwf_destroy_plan(p.inverse);
        throw std::bad_alloc();
    }
    return p;
}

// The plans for a size: cached, or made for this one use when the cache is full
// (`release` then says to destroy them after).
Plans plans_for(int rows, int cols, bool &release) {
    std::lock_guard<std::mutex> lock(planner_lock());
    auto &cache = plan_cache();
    const auto key = std::make_pair(rows, cols);
    if (auto it = cache.find(key); it != cache.end()) { release = false; return it->second; }
    Plans p = make_plans(rows, cols);
    release = cache.size() >= max_cached_plans;
    if (!release) cache.emplace(key, p);
    return p;
}

void destroy(Plans p) {
    std::lock_guard<std::mutex> lock(planner_lock());
    fftwf_destroy_plan(p.forward);
    fftwf_destroy_plan(p.inverse);
}

}  // namespace

RealFFT &RealFFT::for_thread(int rows, int cols) {
    thread_local RealFFT buffers;
    const size_t real = size_t(rows) * size_t(cols), spectrum = size_t(rows) * size_t(cols / 2 + 1);
    if (real > buffers.real_capacity_) {
        fftwf_free(buffers.real_);
        buffers.real_ = fftwf_alloc_real(real);
        buffers.real_capacity_ = buffers.real_ ? real : 0;
        if (!buffers.real_) throw std::bad_alloc();
    }
    if (spectrum > buffers.spectrum_capacity_) {
        fftwf_free(buffers.spectrum_);
        fftwf_free(buffers.scratch_);
        buffers.spectrum_ = fftwf_alloc_complex(spectrum);
        buffers.scratch_ = fftwf_alloc_complex(spectrum);
        buffers.spectrum_capacity_ = buffers.spectrum_ && buffers.scratch_ ? spectrum : 0;
        if (!buffers.spectrum_capacity_) throw std::bad_alloc();
    }
    buffers.rows_ = rows; buffers.cols_ = cols;
    return buffers;
}

RealFFT::~RealFFT() {
    fftwf_free(real_);
    fftwf_free(spectrum_);
    fftwf_free(scratch_);
}

void RealFFT::forward() {
    bool release = false;
    const Plans p = plans_for(rows_, cols_, release);
    fftwf_execute_dft_r2c(p.forward, real_, spectrum_);
    if (release) destroy(p);
}

void RealFFT::inverse() {
    bool release = false;
    const Plans p = plans_for(rows_, cols_, release);
    fftwf_execute_dft_c2r(p.inverse, spectrum_, real_);
    if (release) destroy(p);
}

void RealFFT::inverse_scratch() {
    bool release = false;
    const Plans p = plans_for(rows_, cols_, release);
    fftwf_execute_dft_c2r(p.inverse, scratch_, real_);
    if (release) destroy(p);
}

}  // namespace vc
