// Argument checks both C extractors (vc_orb_*, vc_sift_*) make, with the same messages.
#pragma once
#include "vc_features.h"
#include "vc_guarded.hpp"

namespace vc {

// The count and the pyramid keypoint scales are given in.
inline vc_status check_extractor_params(int32_t n_features, float scale_factor, int32_t n_levels) {
    if (n_features < 1 || n_features > 100000)
        return fail(VC_ERR_INVALID_ARGUMENT, "n_features must be in 1...100000");
    if (!(scale_factor > 1.0f && scale_factor < 4.0f))
        return fail(VC_ERR_INVALID_ARGUMENT, "scale_factor must be in (1, 4)");
    if (n_levels < 1 || n_levels > 32) return fail(VC_ERR_INVALID_ARGUMENT, "n_levels must be in 1...32");
    return VC_OK;
}

// An extraction call's buffers and image; zeroes *count first when it is there.
inline vc_status check_extract_args(const void *extractor, const uint8_t *gray, int32_t width, int32_t height,
                                    int32_t stride, const vc_keypoint *kps, const uint8_t *descriptors,
                                    int32_t capacity, int32_t *count) {
    if (count) *count = 0;
    if (!extractor || !gray || !count || (capacity > 0 && (!kps || !descriptors)))
        return fail(VC_ERR_INVALID_ARGUMENT, "NULL argument");
    if (width <= 0 || height <= 0 || stride < width || capacity < 0)
        return fail(VC_ERR_INVALID_ARGUMENT, "invalid image size, stride or capacity");
    return VC_OK;
}

}  // namespace vc
