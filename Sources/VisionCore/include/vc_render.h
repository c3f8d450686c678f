#ifndef VC_RENDER_H
#define VC_RENDER_H
/* Software renderer for synthetic datasets: textured planar quads seen by a pinhole camera.
 *
 * Each plane is drawn by a perspective warp: the homography from the image to the plane's
 * texture gives, per pixel, the texture coordinate and the inverse depth 1/z (analytic, so
 * the z-buffer is exact and a plane partly behind the camera is cut at the near plane
 * instead of being warped through infinity). Textures are sampled trilinearly from a mip
 * pyramid so distant walls do not alias. Poses sampled over the exposure blur the frame
 * along the real per-pixel image motion; then exposure gain, vignetting and sensor noise.
 *
 * Everything is single-threaded per call and uses its own counter-based random numbers:
 * the output depends only on the inputs, never on thread count or call order. Calls on
 * different threads are independent (textures are read-only once created).
 */
#include <stddef.h>
#include <stdint.h>
#include "vc_common.h"
#ifdef __cplusplus
extern "C" {
#endif

/* ---- Textures ---------------------------------------------------------------------- */

/* An RGB texture with its mip pyramid. Immutable after creation, so one texture may be
 * read by many render calls on many threads at once. */
typedef struct vc_texture vc_texture;

typedef enum vc_draw_kind {
    /* Whole canvas in `color`. */
    VC_DRAW_FILL = 0,
    /* Smooth value noise blended over the canvas: random values on a grid of `size`
     * pixels (seeded by `seed`), bicubically interpolated, mapped from `color` (0) to
     * `color2` (1), with opacity `alpha`. Several layers at different sizes give
     * multi-scale detail. */
    VC_DRAW_NOISE = 1,
    /* Rectangle with corners (x0, y0)-(x1, y1), rotated by `angle_deg` about its centre. */
    VC_DRAW_RECT = 2,
    /* Ellipse centred at (x0, y0) with half-axes (x1, y1), rotated by `angle_deg`. */
    VC_DRAW_ELLIPSE = 3,
    /* Line segment (x0, y0)-(x1, y1). */
    VC_DRAW_LINE = 4,
    /* Polygon through `points` (n_points interleaved x, y pairs), or a polyline when
     * `thickness` > 0 and `closed` is 0. */
    VC_DRAW_POLYGON = 5,
    /* ASCII `text` with its baseline starting at (x0, y0); `size` is the font scale,
     * `font` one of OpenCV's Hershey fonts 0..7. */
    VC_DRAW_TEXT = 6,
    /* Soft round blob: a Gaussian of sigma `size` pixels at (x0, y0), `color`, peak
     * opacity `alpha`. */
    VC_DRAW_BLOB = 7,
    /* Linear gradient over the rectangle (x0, y0)-(x1, y1) from `color` at the left to
     * `color2` at the right, rotated by `angle_deg`. */
    VC_DRAW_GRADIENT = 8
} vc_draw_kind;

/* One drawing operation, in texture pixels (origin top-left, x right, y down).
 * Operations apply in order; each blends over the canvas with opacity `alpha` (0..1). */
typedef struct vc_draw_op {
    int32_t kind;          /* vc_draw_kind */
    double x0, y0, x1, y1;
    double angle_deg;
    double size;
    double alpha;
    int32_t thickness;     /* < 0: filled */
    int32_t closed;        /* polygons: 1 closed outline, 0 open polyline */
    int32_t font;          /* text: Hershey font 0..7 */
    uint8_t color[3];      /* RGB */
    uint8_t color2[3];     /* RGB, noise and gradient */
    uint64_t seed;         /* noise */
    const double *points;  /* polygon points (caller-owned, read during the call) */
    int32_t n_points;
    const char *text;      /* NUL-terminated (caller-owned, read during the call) */
} vc_draw_op;

/* Creates a width x height texture by running `ops` in order on a black canvas, then
 * builds its mip pyramid. *out is owned by the caller: release with vc_texture_destroy.
 * width and height 1..8192. VC_ERR_INVALID_ARGUMENT for a bad size or op. */
vc_status vc_texture_create(int32_t width, int32_t height, const vc_draw_op *ops, int32_t n_ops,
                            vc_texture **out);

/* Creates a texture from an encoded JPEG/PNG image (`data`, len bytes, caller-owned), a
 * JPEG turned upright by its EXIF orientation, resized to width x height (area
 * interpolation to shrink, cubic to enlarge) if they are positive, else kept at its size.
 * *out owned by the caller (vc_texture_destroy). Errors as vc_image_probe (not a JPEG or
 * PNG, truncated), VC_ERR_DECODE for data that does not decode, VC_ERR_TOO_LARGE for a side
 * over 8192. */
vc_status vc_texture_create_from_image(const uint8_t *data, size_t len, int32_t width,
                                       int32_t height, vc_texture **out);

/* Size of a texture. */
void vc_texture_size(const vc_texture *texture, int32_t *width, int32_t *height);

/* Copies level 0 of the texture (RGB, width*3 bytes per row) into `rgb` (caller-owned,
 * at least stride*height bytes). */
vc_status vc_texture_read(const vc_texture *texture, uint8_t *rgb, int32_t stride);

/* Releases a texture; NULL is ignored. */
void vc_texture_destroy(vc_texture *texture);

/* ---- Rendering --------------------------------------------------------------------- */

/* A textured quad. Corners in the map frame as seen from the front: bottom-left,
 * bottom-right, top-right, top-left (x, y, z each). The texture spans the quad: its
 * top-left edge at the top-left corner, so texel (i, j) has its centre at fraction
 * ((i + 0.5) / width, (j + 0.5) / height) of the way to the right and down. Both sides
 * are drawn. */
typedef struct vc_render_plane {
    double corners[12];
    const vc_texture *texture; /* borrowed for the call */
    double shade;              /* multiplies the texture colour (lighting), e.g. 0.5..1.3 */
} vc_render_plane;

/* The camera: pinhole, no distortion; pixel centres at integer coordinates (OpenCV). */
typedef struct vc_render_camera {
    int32_t width, height;     /* 1..8192 */
    double fx, fy, cx, cy;
    double near_clip;          /* metres, > 0; e.g. 0.05 */
} vc_render_camera;

/* A camera pose as map-to-camera transform: X_cam = R_cw * X_map + t_cw (row-major R). */
typedef struct vc_render_pose {
    double R_cw[9];
    double t_cw[3];
} vc_render_pose;

typedef struct vc_render_effects {
    double gain;               /* exposure multiplier applied to radiance; 1 = unchanged */
    double vignetting;         /* darkening at the image corners, 0 (none) .. 0.6 */
    double read_noise;         /* Gaussian noise sigma in 8-bit levels, independent of signal */
    double shot_noise;         /* signal-dependent noise: sigma = shot_noise * sqrt(level) */
    uint64_t seed;             /* noise seed: same seed and inputs give the same image */
    uint8_t background[3];     /* RGB where no plane is seen */
} vc_render_effects;

/* Neutral effects: gain 1, no vignetting, no noise, grey background. */
vc_render_effects vc_render_default_effects(void);

/* Renders the planes seen from `poses` (n_poses 1..64, in time order over the exposure).
 * The image is drawn sharp at the middle pose poses[n_poses / 2]; with more poses, each
 * pixel then averages where its scene point (exact depth from the z-buffer) moves at the
 * other poses: motion blur along the real per-pixel image motion. Then applies `effects`
 * (NULL = neutral) and writes RGB into `rgb_out` (caller-owned, stride >= width*3, at
 * least stride*height bytes). If `plane_id_out` is not NULL (caller-owned, width*height
 * int32) it receives, for the middle pose, the index of the plane seen at each pixel or -1. */
vc_status vc_render(const vc_render_camera *camera, const vc_render_pose *poses, int32_t n_poses,
                    const vc_render_plane *planes, int32_t n_planes,
                    const vc_render_effects *effects, uint8_t *rgb_out, int32_t stride,
                    int32_t *plane_id_out);

#ifdef __cplusplus
}
#endif
#endif
