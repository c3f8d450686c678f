#include "idle_helpers.hpp"
#include "vc_idle_helpers.h"
#include "vc_guarded.hpp"
#include <algorithm>
#include <pthread.h>

namespace vc {
namespace {
thread_local IdleHelpers *current_helpers = nullptr;
}

struct IdleHelpers::Job {
    void (*call)(void *, int);
    void *ctx;
    int n;
    std::atomic<int> next{0};
    int helpers_in = 0;  // helpers inside work_on; guarded by IdleHelpers::mutex_
    std::mutex error_mutex;
    std::exception_ptr error;
};

IdleHelpers::IdleHelpers(int threads, int cores) : cores_(cores) {
    threads_.reserve(size_t(threads));
    try {
        for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { helper_main(); });
    } catch (...) {
        stop();  // the threads already started
        throw;
    }
}

IdleHelpers::~IdleHelpers() { stop(); }

void IdleHelpers::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread &t : threads_)
        if (t.joinable()) t.join();
    threads_.clear();
}

IdleHelpers *IdleHelpers::current() { return current_helpers; }
void IdleHelpers::set_current(IdleHelpers *helpers) { current_helpers = helpers; }

void IdleHelpers::job_started() { busy_.fetch_add(1, std::memory_order_relaxed); }

void IdleHelpers::job_finished() {
    if (busy_.fetch_sub(1, std::memory_order_relaxed) - 1 >= cores_) return;
    // A core has come free: helpers asleep may now take tasks a running job still has.
    std::lock_guard<std::mutex> lock(mutex_);
    if (!jobs_.empty() && sleeping_ > 0) wake_.notify_one();
}

bool IdleHelpers::core_free() const { return busy_.load(std::memory_order_relaxed) < cores_; }

void IdleHelpers::work_on(Job &job, bool helper) {
    // A helper starts a task only while fewer jobs run than there are cores, so it takes
    // a core from a worker for one task at most.
    for (int i; (!helper || core_free()) && (i = job.next.fetch_add(1, std::memory_order_relaxed)) < job.n;) {
        if (helper) tasks_run_.fetch_add(1, std::memory_order_relaxed);
        try {
            job.call(job.ctx, i);
        } catch (...) {
            std::lock_guard<std::mutex> lock(job.error_mutex);
            if (!job.error) job.error = std::current_exception();
        }
    }
}

void IdleHelpers::run(int n, void (*call)(void *, int), void *ctx) {
    Job job;
    job.call = call;
    job.ctx = ctx;
    job.n = n;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        jobs_.push_back(&job);
        // One helper per free core, at most.
        const int free_cores = cores_ - busy_.load(std::memory_order_relaxed);
        for (int k = 0; k < std::min({sleeping_, free_cores, n - 1}); ++k) wake_.notify_one();
    }
    work_on(job, false);
    {
        // Every task is taken; wait for the helpers still running one.
        std::unique_lock<std::mutex> lock(mutex_);
        jobs_.erase(std::remove(jobs_.begin(), jobs_.end(), &job), jobs_.end());
        finished_.wait(lock, [&] { return job.helpers_in == 0; });
    }
    if (job.error) std::rethrow_exception(job.error);
}

void IdleHelpers::helper_main() {
    // Ordinary priority, on purpose: a helper only starts a task while a core is free, and
    // one still holding a task when the workers take every core again must keep a fair
    // share of a core, or the job that waits for that task stalls. Over 2,000 joins the
    // waiting came to 135-189 ms at SCHED_IDLE, 82-98 ms at normal priority
    // (docs/service.md, "Idle-core helpers").
    pthread_setname_np(pthread_self(), "vc-idle-helper");

    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
        Job *job = nullptr;
        if (core_free()) {
            for (Job *j : jobs_)
                if (j->next.load(std::memory_order_relaxed) < j->n) { job = j; break; }
        }
        if (!job) {
            ++sleeping_;
            wake_.wait(lock);
            --sleeping_;
            continue;
        }
        ++job->helpers_in;
        lock.unlock();
        work_on(*job, true);
        lock.lock();
        if (--job->helpers_in == 0) finished_.notify_all();
    }
}

}  // namespace vc

struct vc_idle_helpers {
    vc::IdleHelpers impl;
    vc_idle_helpers(int threads, int cores) : impl(threads, cores) {}
};

extern "C" vc_status vc_idle_helpers_create(int32_t threads, int32_t cores, vc_idle_helpers **out) {
    return vc::guarded([&]() -> vc_status {
        if (!out) return vc::fail(VC_ERR_INVALID_ARGUMENT, "NULL argument");
        *out = nullptr;
        if (threads < 1 || threads > 256)
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "helper threads must be in 1...256");
        if (cores < 1 || cores > 4096)
            return vc::fail(VC_ERR_INVALID_ARGUMENT, "cores must be in 1...4096");
        *out = new vc_idle_helpers(threads, cores);
        return VC_OK;
    });
}

extern "C" void vc_idle_helpers_destroy(vc_idle_helpers *helpers) { delete helpers; }

extern "C" void vc_idle_helpers_use_on_current_thread(vc_idle_helpers *helpers) {
    vc::IdleHelpers::set_current(helpers ? &helpers->impl : nullptr);
}

extern "C" void vc_idle_helpers_job_started(vc_idle_helpers *helpers) {
    if (helpers) helpers->impl.job_started();
}

extern "C" void vc_idle_helpers_job_finished(vc_idle_helpers *helpers) {
    if (helpers) helpers->impl.job_finished();
}

extern "C" int32_t vc_idle_helpers_count(const vc_idle_helpers *helpers) {
    return helpers ? helpers->impl.count() : 0;
}

extern "C" int64_t vc_idle_helpers_tasks_run(const vc_idle_helpers *helpers) {
    return helpers ? helpers->impl.tasks_run() : 0;
}
