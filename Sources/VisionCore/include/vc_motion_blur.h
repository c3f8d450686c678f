#ifndef VC_MOTION_BLUR_H
#define VC_MOTION_BLUR_H
/* Linear motion blur: estimated from one 8-bit gray image, and removed by Wiener
 * deconvolution. A camera that turns or moves during the exposure smears the image along
 * one direction; corners then match neighbouring map points along that direction as well as
 * their own, and a pose grown from such matches settles centimetres off.
 *
 * Estimation (Yitzhaky & Kopeika's method): the direction is the one along which the image
 * gradient has the least energy (the minor axis of the structure tensor); the length is the
 * lag of the deepest minimum of the autocorrelation of the derivative along that direction
 * (a smear of length L turns each edge into a step pair L apart). */
#include <stdint.h>
#include "vc_common.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct vc_motion_blur {
    double length_px;  /* extent of the smear in pixels; 0 when not searched (see below) */
    double angle_deg;  /* its direction, [0, 180): the unit vector (cos, sin) in pixel axes
                          (x right, y down) */
    double anisotropy; /* gradient energy across the direction over that along it (>= 1) */
} vc_motion_blur;

/* Estimates the motion blur of `gray` (width*height bytes, row-major, stride = width,
 * caller-owned, read only; both sides >= 16). The length is searched, which costs two
 * Fourier transforms of the image with its borders mirrored, only when the anisotropy reaches min_anisotropy; otherwise
 * length_px is 0. On an image larger than 640x480 (480x640 upright) the search reads the
 * central window of that size, or of six times the longest length searched on each side
 * when that is more. Lengths are searched up to a sixteenth of the longer side (at least
 * 16 px). VC_ERR_INVALID_ARGUMENT for NULL pointers or too small an image. */
vc_status vc_motion_blur_estimate(const uint8_t *gray, int32_t width, int32_t height, double min_anisotropy,
                                  vc_motion_blur *out);

/* Estimates `gray`'s blur as vc_motion_blur_estimate does (into *blur) and, when the length
 * found reaches min_length and is at most the image's shorter side (vc_motion_deblur's
 * bound), writes the image with it removed into `out` (as vc_motion_deblur does) and sets
 * *removed to 1; otherwise *removed is 0 and `out` is left untouched. On an image of at most
 * 640x480 the length search and the deconvolution share one transform of the image,
 * which makes this cheaper than the two calls. `out`: width*height bytes, caller-owned, may
 * not alias `gray`. VC_ERR_INVALID_ARGUMENT as for the two calls. */
vc_status vc_motion_blur_remove(const uint8_t *gray, int32_t width, int32_t height, double min_anisotropy,
                                double min_length, double noise_to_signal, vc_motion_blur *blur, uint8_t *out,
                                int32_t *removed);

/* Writes `gray` with the linear blur `blur` (length_px > 0) removed into `out` (width*height
 * bytes, caller-owned; may not alias `gray`): Wiener deconvolution with a box of that length
 * and direction, noise_to_signal (> 0, e.g. 0.01) the regulariser that keeps the noise the
 * smear hid from being amplified. The borders are mirrored so they do not ring.
 * VC_ERR_INVALID_ARGUMENT for NULL pointers, bad sizes, a length <= 0 or above the image's
 * shorter side, or noise_to_signal <= 0. */
vc_status vc_motion_deblur(const uint8_t *gray, int32_t width, int32_t height, const vc_motion_blur *blur,
                           double noise_to_signal, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif
