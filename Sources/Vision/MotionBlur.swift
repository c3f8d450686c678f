import VisionCore

/// The linear motion blur of an image: how far, and along which direction, the image moved
/// during the exposure (a camera turning or walking while the shutter is open).
///
/// Blur along one direction leaves corners that match their neighbours along it nearly as
/// well as their own map points, so a pose grown from them can settle a few centimetres off
/// while hundreds of inliers make it look certain. Removing the blur before features are
/// extracted (`GrayImage.deblurred(_:noiseToSignal:)`) restores the distinct corners.
///
/// Estimated as Yitzhaky and Kopeika do: the direction is the one along which the gradient
/// has least energy, the length the lag of the deepest minimum of the autocorrelation of
/// the derivative along it (a smear of length L makes every edge a step pair L apart).
public struct MotionBlur: Sendable, Hashable {
    /// Extent of the smear in pixels; 0 when the length was not searched (`anisotropy`
    /// below the estimate's `minAnisotropy`).
    public var length: Double
    /// Direction of the smear in degrees, 0 ..< 180: the unit vector (cos, sin) in pixel
    /// axes (x right, y down).
    public var angleDegrees: Double
    /// Gradient energy across the direction over that along it (≥ 1): near 1 for a sharp
    /// image of ordinary content, several times that under a smear of a few pixels.
    public var anisotropy: Double

    public init(length: Double, angleDegrees: Double, anisotropy: Double = 1) {
        self.length = length; self.angleDegrees = angleDegrees; self.anisotropy = anisotropy
    }

    /// Estimates `image`'s blur. The length search (two Fourier transforms of the image, its
    /// borders mirrored) runs only when the anisotropy reaches `minAnisotropy`: a sharp
    /// image costs one pass over half its rows.
    /// Throws `.invalidArgument` for an image smaller than 16×16.
    public init(estimating image: GrayImage, minAnisotropy: Double) throws(VisionError) {
        var out = vc_motion_blur()
        let status = image.pixels.withUnsafeBufferPointer {
            vc_motion_blur_estimate($0.baseAddress, Int32(image.width), Int32(image.height), minAnisotropy, &out)
        }
        try VisionError.check(status)
        self.init(length: out.length_px, angleDegrees: out.angle_deg, anisotropy: out.anisotropy)
    }
}

extension GrayImage {
    /// This image's blur (as `MotionBlur(estimating:minAnisotropy:)` finds it) and, when the
    /// smear is at least `minLength` pixels long, the image with it removed (as
    /// `deblurred(_:noiseToSignal:)` gives it; nil otherwise). The length search and the
    /// deconvolution share one Fourier transform of the image, so this costs three
    /// transforms where the two calls take four.
    public func removingMotionBlur(minAnisotropy: Double, minLength: Double,
                                   noiseToSignal: Double) throws(VisionError) -> (blur: MotionBlur, image: GrayImage?) {
        var c = vc_motion_blur()
        var removed: Int32 = 0
        var status = VC_OK
        let out = pixels.withUnsafeBufferPointer { src in
            [UInt8](unsafeUninitializedCapacity: src.count) { buf, initialized in
                status = vc_motion_blur_remove(src.baseAddress, Int32(width), Int32(height), minAnisotropy, minLength,
                                               noiseToSignal, &c, buf.baseAddress, &removed)
                // Nothing written: an empty array, no pixels touched.
                initialized = status == VC_OK && removed != 0 ? src.count : 0
            }
        }
        try VisionError.check(status)
        let blur = MotionBlur(length: c.length_px, angleDegrees: c.angle_deg, anisotropy: c.anisotropy)
        return (blur, removed != 0 ? try GrayImage(width: width, height: height, pixels: out) : nil)
    }

    /// This image with `blur` removed by Wiener deconvolution (a box of `blur.length` pixels
    /// along `blur.angleDegrees`; borders mirrored). `noiseToSignal` (> 0; 0.01 suits 8-bit
    /// camera images) bounds how much the frequencies the smear nearly erased are amplified,
    /// and with them the noise. Throws `.invalidArgument` for a length ≤ 0 or longer than
    /// the image's shorter side, or `noiseToSignal` ≤ 0.
    public func deblurred(_ blur: MotionBlur, noiseToSignal: Double) throws(VisionError) -> GrayImage {
        var c = vc_motion_blur(length_px: blur.length, angle_deg: blur.angleDegrees, anisotropy: blur.anisotropy)
        var status = VC_OK
        let out = pixels.withUnsafeBufferPointer { src in
            [UInt8](unsafeUninitializedCapacity: src.count) { buf, initialized in
                status = vc_motion_deblur(src.baseAddress, Int32(width), Int32(height), &c, noiseToSignal, buf.baseAddress)
                if status != VC_OK { buf.initialize(repeating: 0) }
                initialized = src.count
            }
        }
        try VisionError.check(status)
        return try GrayImage(width: width, height: height, pixels: out)
    }
}
