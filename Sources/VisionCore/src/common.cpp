#include "vc_common.h"
#include "vc_guarded.hpp"
#include <opencv2/core.hpp>
#include <malloc.h>

namespace vc {
namespace {
thread_local std::string last_error;
}
void set_last_error(const char *message) { last_error = message ? message : ""; }
void clear_last_error() { last_error.clear(); }
}  // namespace vc

extern "C" const char *vc_opencv_version(void) { return CV_VERSION; }

extern "C" void vc_set_opencv_threads(int32_t threads) { cv::setNumThreads(threads < 1 ? 1 : threads); }

extern "C" int32_t vc_opencv_threads(void) { return cv::getNumThreads(); }
extern "C" const char *vc_last_error_message(void) { return vc::last_error.c_str(); }

// Present when a sanitizer's allocator replaces glibc's (whose mallinfo2 then sees nothing).
extern "C" size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));

extern "C" int64_t vc_heap_bytes(void) {
    if (__sanitizer_get_current_allocated_bytes) return int64_t(__sanitizer_get_current_allocated_bytes());
    const struct mallinfo2 info = mallinfo2();
    return int64_t(info.uordblks + info.hblkhd);
}
