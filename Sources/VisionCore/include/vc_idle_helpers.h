#ifndef VC_IDLE_HELPERS_H
#define VC_IDLE_HELPERS_H
/* Idle-core helpers: threads that lend a free core to a call in progress.
 *
 * The caller counts its jobs (one localization each) with vc_idle_helpers_job_started /
 * _finished. Helpers take a task only while fewer jobs run than there are cores, so a
 * server that runs one localization per core loses nothing to them, and one with a core
 * free (low load, or a worker waiting for its connection's next request) finishes the
 * localization in progress sooner. Parts of a call that use them: ORB extraction (corners
 * and blurred copies of the pyramid levels, then the descriptors of each level). Results
 * are identical with and without helpers.
 *
 * A thread opts in with vc_idle_helpers_use_on_current_thread; calls on other threads run
 * on their calling thread alone, as before. */
#include <stdint.h>
#include "vc_common.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct vc_idle_helpers vc_idle_helpers;

/* Starts `threads` helper threads (1...256) for a machine of `cores` cores (*out owned by
 * the caller; release with vc_idle_helpers_destroy). VC_ERR_INVALID_ARGUMENT outside those
 * ranges, VC_ERR_INTERNAL when a thread cannot be started. */
vc_status vc_idle_helpers_create(int32_t threads, int32_t cores, vc_idle_helpers **out);

/* Stops and joins the helper threads. No thread may still be using them (every thread
 * that opted in has opted out, or exited). NULL is ignored. */
void vc_idle_helpers_destroy(vc_idle_helpers *helpers);

/* Lets VisionCore calls made on the calling thread from now on hand parts of their work to
 * `helpers` (not owned: it must outlive this thread's use of it); NULL stops that. */
void vc_idle_helpers_use_on_current_thread(vc_idle_helpers *helpers);

/* The caller's jobs (one localization each) in progress: a worker calls _started before
 * each and _finished after it. While as many jobs run as there are cores, helpers take no
 * task, so they never compete with a worker for a core. NULL is ignored. */
void vc_idle_helpers_job_started(vc_idle_helpers *helpers);
void vc_idle_helpers_job_finished(vc_idle_helpers *helpers);

/* Number of helper threads; 0 for NULL. */
int32_t vc_idle_helpers_count(const vc_idle_helpers *helpers);

/* Tasks the helper threads have run so far; 0 for NULL. */
int64_t vc_idle_helpers_tasks_run(const vc_idle_helpers *helpers);

#ifdef __cplusplus
}
#endif
#endif
