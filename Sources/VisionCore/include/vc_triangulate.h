#ifndef VC_TRIANGULATE_H
#define VC_TRIANGULATE_H
/* Triangulation of world points from two or more calibrated views: linear DLT, then
 * Gauss–Newton on pixel reprojection error, then cheirality (in front of every camera),
 * parallax (largest angle between viewing rays) and reprojection checks. */
#include <stdint.h>
#include "vc_common.h"
#ifdef __cplusplus
extern "C" {
#endif

/* A calibrated view: X_cam = R_cw X_world + t_cw, pixels undistorted. */
typedef struct vc_view {
    double R_cw[9];
    double t_cw[3];
    vc_pinhole camera;
} vc_view;

typedef struct vc_triangulation_options {
    double min_parallax_deg; /* e.g. 1.0 */
    double max_error_px;     /* largest reprojection error allowed in any view, e.g. 4 */
    int32_t refine;          /* nonzero: Gauss–Newton after DLT */
} vc_triangulation_options;

typedef enum vc_triangulation_status {
    VC_TRI_OK = 0,
    VC_TRI_DEGENERATE = 1,    /* rays parallel / point at infinity / non-finite */
    VC_TRI_BEHIND_CAMERA = 2, /* fails cheirality in at least one view */
    VC_TRI_LOW_PARALLAX = 3,  /* largest ray angle below min_parallax_deg */
    VC_TRI_HIGH_ERROR = 4     /* some reprojection error above max_error_px */
} vc_triangulation_status;

typedef struct vc_triangulated_point {
    double X[3];           /* world point (meaningful unless DEGENERATE) */
    int32_t status;        /* vc_triangulation_status */
    double parallax_deg;
    double max_error_px;
    double mean_error_px;
} vc_triangulated_point;

/* One point seen in n_views >= 2 views (views: n_views entries; pixels: 2*n_views doubles,
 * caller-owned). errors_px: NULL or n_views doubles (caller-owned) receiving each view's
 * reprojection error. A failed check is reported in out->status, not as an error status. */
vc_status vc_triangulate(const vc_view *views, const double *pixels, int32_t n_views,
                         const vc_triangulation_options *options, vc_triangulated_point *out,
                         double *errors_px);

/* n points seen in two views: pixels_a / pixels_b are 2n doubles each; out has n entries
 * (all caller-owned). */
vc_status vc_triangulate_pairs(const vc_view *a, const vc_view *b, const double *pixels_a,
                               const double *pixels_b, int32_t n,
                               const vc_triangulation_options *options,
                               vc_triangulated_point *out);

#ifdef __cplusplus
}
#endif
#endif
