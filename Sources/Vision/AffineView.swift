import VisionCore

/// One of ASIFT's simulated views of an image (Morel & Yu 2009): the image as a camera tilted
/// by `tilt` (1 / cos of the viewing latitude) about the axis at `angleDegrees` would see it.
/// ORB features found in such a view match a photo taken 45–60° from the original, where the
/// original's own features do not; `originalPixel(of:)` maps them back.
public struct AffineView: Sendable {
    public let tilt: Double
    public let angleDegrees: Double
    /// The simulated view.
    public let image: GrayImage
    /// Original pixel → view pixel, row-major 2×3.
    public let transform: [Double]

    /// Renders the view of `image` (at least 16×16). Throws `.invalidArgument` for a tilt
    /// outside [1, 8].
    public init(of image: GrayImage, tilt: Double, angleDegrees: Double) throws(VisionError) {
        var g = vc_affine_view_geometry()
        try VisionError.check(vc_affine_view_geometry_of(Int32(image.width), Int32(image.height), tilt, angleDegrees, &g))
        let count = Int(g.width) * Int(g.height)
        var status = VC_OK
        let pixels = image.pixels.withUnsafeBufferPointer { src in
            [UInt8](unsafeUninitializedCapacity: count) { buf, initialized in
                status = vc_affine_view(src.baseAddress, Int32(image.width), Int32(image.height), tilt, angleDegrees,
                                        buf.baseAddress, count, &g)
                if status != VC_OK { buf.initialize(repeating: 0) }
                initialized = count
            }
        }
        try VisionError.check(status)
        self.tilt = tilt; self.angleDegrees = angleDegrees
        self.image = try GrayImage(width: Int(g.width), height: Int(g.height), pixels: pixels)
        transform = withUnsafeBytes(of: g.A) { Array($0.bindMemory(to: Double.self)) }
    }

    /// The view pixel of original pixel `p`.
    public func viewPixel(of p: SIMD2<Double>) -> SIMD2<Double> {
        let a = transform
        return SIMD2(a[0] * p.x + a[1] * p.y + a[2], a[3] * p.x + a[4] * p.y + a[5])
    }

    /// The original pixel of view pixel `q` (the transform's inverse).
    public func originalPixel(of q: SIMD2<Double>) -> SIMD2<Double> {
        let a = transform
        let det = a[0] * a[4] - a[1] * a[3]
        let u = q.x - a[2], v = q.y - a[5]
        return SIMD2((a[4] * u - a[1] * v) / det, (-a[3] * u + a[0] * v) / det)
    }

    /// ASIFT's sampling of tilts and angles that a map of few photos gets: tilts √2 and 2,
    /// each at angles 0°, 45°, 90° and 135° (8 views).
    public static let mapViews: [(tilt: Double, angleDegrees: Double)] =
        [Double(2).squareRoot(), 2].flatMap { t in [0.0, 45, 90, 135].map { (t, $0) } }
}
