#ifndef VC_AFFINE_VIEW_H
#define VC_AFFINE_VIEW_H
/* ASIFT's simulated views (Morel & Yu, SIAM J. Imaging Sciences 2009): the image as a camera
 * would see it tilted by `tilt` (1 / cos of the latitude) about the axis at `angle_deg`.
 * The image is rotated by angle_deg, blurred along x by 0.8 √(tilt² − 1) pixels (so the
 * subsampling does not alias), then shrunk along x by `tilt`. Features detected in such
 * views match a photo taken up to ~60° away, which the original's features do not. */
#include <stddef.h>
#include <stdint.h>
#include "vc_common.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct vc_affine_view_geometry {
    int32_t width, height; /* size of the simulated view */
    double A[6];           /* original pixel → view pixel, row-major 2×3:
                              (u, v) = (A0 x + A1 y + A2, A3 x + A4 y + A5) */
} vc_affine_view_geometry;

/* The size and mapping of the view of a width × height image (tilt in [1, 8], any angle). */
vc_status vc_affine_view_geometry_of(int32_t width, int32_t height, double tilt, double angle_deg,
                                     vc_affine_view_geometry *out);

/* Renders the view of `gray` (width*height bytes, row-major, caller-owned, read only) into
 * `out` (caller-owned, out_capacity bytes, stride = view width); *geometry receives its
 * size and mapping. VC_ERR_BUFFER_TOO_SMALL, with *geometry filled, when out_capacity is
 * below the view's size. VC_ERR_INVALID_ARGUMENT for NULL pointers, sizes below 16 px or
 * over VC_DEFAULT_MAX_PIXELS, or a tilt outside [1, 8]. */
vc_status vc_affine_view(const uint8_t *gray, int32_t width, int32_t height, double tilt, double angle_deg,
                         uint8_t *out, size_t out_capacity, vc_affine_view_geometry *geometry);

#ifdef __cplusplus
}
#endif
#endif
