// Idle-core helpers (vc_idle_helpers.h): a fork-join loop whose calling thread does the
// work itself while helper threads take tasks only when a core is free of jobs.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <type_traits>
#include <thread>
#include <vector>

namespace vc {

class IdleHelpers {
public:
    // Helpers take tasks only while fewer than `cores` jobs run (job_started/finished).
    IdleHelpers(int threads, int cores);  // throws std::system_error when a thread cannot start
    ~IdleHelpers();
    IdleHelpers(const IdleHelpers &) = delete;
    IdleHelpers &operator=(const IdleHelpers &) = delete;

    int count() const { return int(threads_.size()); }
    // Tasks helpers have run so far (all jobs).
    int64_t tasks_run() const { return tasks_run_.load(std::memory_order_relaxed); }

    // Runs call(ctx, i) for every i in [0, n) and returns when all have run. The calling
    // thread takes tasks in order; helpers the kernel runs meanwhile take the next ones.
    // The first exception a task throws is rethrown here, after every task has finished.
    void run(int n, void (*call)(void *, int), void *ctx);

    // The callers' jobs (a localization each) that are running: while there are as many
    // as cores, helpers take no task.
    void job_started();
    void job_finished();

    // Helpers the calling thread has opted into (vc_idle_helpers_use_on_current_thread).
    static IdleHelpers *current();
    static void set_current(IdleHelpers *helpers);

private:
    struct Job;
    void work_on(Job &job, bool helper);
    bool core_free() const;
    void helper_main();
    void stop();  // wakes and joins every helper

    std::mutex mutex_;
    std::condition_variable wake_;      // helpers: a job was posted, or stopping
    std::condition_variable finished_;  // owners: a helper left a job
    std::vector<Job *> jobs_;           // jobs with tasks left, oldest first
    int sleeping_ = 0;
    const int cores_;
    std::atomic<int> busy_{0};
    std::atomic<int64_t> tasks_run_{0};
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

// Runs f(i) for i in [0, n): with the calling thread's helpers when it has any, else
// in order on the calling thread.
template <class F>
void parallel_for(int n, F &&f) {
    IdleHelpers *h = IdleHelpers::current();
    if (!h || n < 2) {
        for (int i = 0; i < n; ++i) f(i);
        return;
    }
    h->run(n, [](void *ctx, int i) { (*static_cast<std::remove_reference_t<F> *>(ctx))(i); },
           const_cast<void *>(static_cast<const void *>(&f)));
}

}  // namespace vc
