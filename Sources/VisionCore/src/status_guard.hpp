#pragma once

#include <new>

#include "vc_common.h"

// Runs `body` (which returns a vc_status) at the C boundary: no exception may cross into
// Swift, so an allocation failure becomes VC_ERR_OUT_OF_MEMORY and any other exception
// VC_ERR_INTERNAL.
template <class Body>
vc_status vc_guarded(Body &&body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc &) {
        return VC_ERR_OUT_OF_MEMORY;
    } catch (...) {
        return VC_ERR_INTERNAL;
    }
}
