// Synthetic test images (see vc_test_images.h).
#include "vc_test_images.h"
#include "vc_guarded.hpp"
#include <opencv2/imgproc.hpp>

extern "C" vc_status vc_test_texture(uint8_t *out, int32_t width, int32_t height, uint64_t seed) {
    return vc::guarded([&]() -> vc_status {
        if (!out || width <= 0 || height <= 0) return vc::fail(VC_ERR_INVALID_ARGUMENT, "bad argument");
        cv::Mat img(height, width, CV_8UC1, out);
        cv::RNG rng(seed);
        img.setTo(cv::Scalar(rng.uniform(60, 190)));
        const int area = width * height;
        const int shapes = std::max(20, area / 400);
        const int maxr = std::max(4, std::min(width, height) / 12);
        for (int i = 0; i < shapes; ++i) {
            const cv::Point c(rng.uniform(0, width), rng.uniform(0, height));
            const cv::Scalar col(rng.uniform(0, 256));
            switch (rng.uniform(0, 4)) {
            case 0:
                cv::circle(img, c, rng.uniform(2, maxr), col, -1, cv::LINE_8);
                break;
            case 1: {
                const cv::Point d(rng.uniform(2, maxr), rng.uniform(2, maxr));
                cv::rectangle(img, c - d, c + d, col, -1, cv::LINE_8);
                break;
            }
            case 2: {
                const cv::Point pts[3] = {c, c + cv::Point(rng.uniform(-maxr, maxr), rng.uniform(-maxr, maxr)),
                                          c + cv::Point(rng.uniform(-maxr, maxr), rng.uniform(-maxr, maxr))};
                cv::fillConvexPoly(img, pts, 3, col, cv::LINE_8);
                break;
            }
            default:
                cv::line(img, c, c + cv::Point(rng.uniform(-2 * maxr, 2 * maxr), rng.uniform(-2 * maxr, 2 * maxr)),
                         col, rng.uniform(1, 4), cv::LINE_8);
            }
        }
        cv::GaussianBlur(img, img, cv::Size(3, 3), 0.8);
        cv::Mat noise(height, width, CV_8SC1);
        rng.fill(noise, cv::RNG::NORMAL, 0, 3);
        cv::Mat sum;
        img.convertTo(sum, CV_16S);
        cv::Mat n16;
        noise.convertTo(n16, CV_16S);
        sum += n16;
        sum.convertTo(img, CV_8U);  // saturates
        return VC_OK;
    });
}
