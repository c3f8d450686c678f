// C++ only, for code that implements this C ABI (VisionCore itself, and BaselineCore built
// on it): every exported function runs its body through vc::guarded so that no C++
// exception reaches Swift (it would abort the process), and its failures land in the one
// thread-local message `vc_last_error_message` reads. Not part of the Swift module
// (module.modulemap excludes it).
#pragma once
#include "vc_common.h"
#include <new>
#include <string>
#include <opencv2/core.hpp>

namespace vc {

void set_last_error(const char *message);
void clear_last_error();

inline vc_status fail(vc_status s, const char *message) {
    set_last_error(message);
    return s;
}

template <class F>
vc_status guarded(F &&body) noexcept {
    try {
        clear_last_error();
        return body();
    } catch (const std::bad_alloc &) {
        set_last_error("out of memory");
        return VC_ERR_OUT_OF_MEMORY;
    } catch (const cv::Exception &e) {
        set_last_error(e.what());
        return VC_ERR_INTERNAL;
    } catch (const std::exception &e) {
        set_last_error(e.what());
        return VC_ERR_INTERNAL;
    } catch (...) {
        set_last_error("unknown C++ exception");
        return VC_ERR_INTERNAL;
    }
}

}  // namespace vc
