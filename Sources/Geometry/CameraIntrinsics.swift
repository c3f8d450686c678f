import Foundation

/// Pinhole intrinsics in pixels for the image as stored, with optional OpenCV distortion
/// `k1 k2 p1 p2 [k3]`.
public struct CameraIntrinsics: Sendable, Hashable, Codable {
    public var width: Int
    public var height: Int
    public var fx: Double, fy: Double, cx: Double, cy: Double
    public var distortion: [Double]

    public init(width: Int, height: Int, fx: Double, fy: Double, cx: Double, cy: Double,
                distortion: [Double] = []) {
        self.width = width; self.height = height
        self.fx = fx; self.fy = fy; self.cx = cx; self.cy = cy
        self.distortion = distortion
    }

    /// The field of view a pinhole camera may have along either image axis, in degrees. A
    /// focal length outside it is a unit or parsing mistake, not a lens: 1° is narrower
    /// than a 1200 mm telephoto on a full-frame sensor (1.7°), and a pinhole model cannot
    /// reach 180° at all (fisheye images must be undistorted first).
    public static let fieldOfViewDegrees: ClosedRange<Double> = 1...179

    /// How much the distortion model may scale a point's distance from the principal point,
    /// anywhere within the image. Real lenses stay within a few tens of percent (the TUM
    /// RGB-D fr1 camera: 0.94–1.07); a model beyond 10× either way describes no lens.
    public static let distortionScale: ClosedRange<Double> = 0.1...10

    /// Why these intrinsics cannot describe a real camera, or nil when they can. Every reader
    /// of intrinsics (sessions, maps, COLMAP and nerfstudio imports, HTTP requests) checks
    /// them here, so all refuse the same values with the same words.
    public var problem: String? {
        if width <= 0 || height <= 0 { return "image size \(width)x\(height) is not positive" }
        if width > 16384 || height > 16384 { return "image size \(width)x\(height) is too large (at most 16384 px a side)" }
        if !(fx.isFinite && fy.isFinite && cx.isFinite && cy.isFinite) { return "intrinsics must be finite" }
        if fx <= 0 || fy <= 0 { return "focal lengths must be positive (fx=\(fx), fy=\(fy))" }
        if cx < 0 || cx > Double(width) || cy < 0 || cy > Double(height) {
            return "principal point (\(cx), \(cy)) lies outside the \(width)x\(height) image"
        }
        if let p = Self.fieldOfViewProblem("fx", focal: fx, principal: cx, pixels: width, axis: "horizontal")
            ?? Self.fieldOfViewProblem("fy", focal: fy, principal: cy, pixels: height, axis: "vertical") {
            return p
        }
        if !(distortion.isEmpty || distortion.count == 4 || distortion.count == 5) {
            return "distortion needs 4 or 5 coefficients (k1 k2 p1 p2 [k3]), got \(distortion.count)"
        }
        if distortion.contains(where: { !$0.isFinite }) { return "distortion must be finite" }
        return distortionProblem
    }

    /// The field of view in degrees that `focal` spans over `pixels` with the principal point at `principal`.
    private static func fieldOfView(focal: Double, principal: Double, pixels: Int) -> Double {
        (atan(principal / focal) + atan((Double(pixels) - principal) / focal)) * 180 / .pi
    }

    private static func fieldOfViewProblem(_ name: String, focal: Double, principal: Double, pixels: Int,
                                           axis: String) -> String? {
        let fov = fieldOfView(focal: focal, principal: principal, pixels: pixels)
        guard !fieldOfViewDegrees.contains(fov) else { return nil }
        // The focal lengths at the bounds, for the message: the field of view falls as the
        // focal length grows, so bisect (in log space) for each bound.
        func focalLength(giving degrees: Double) -> Double {
            var lo = -30.0, hi = 30.0   // log10 of the focal length
            for _ in 0..<100 {
                let mid = (lo + hi) / 2
                if fieldOfView(focal: pow(10, mid), principal: principal, pixels: pixels) > degrees { lo = mid } else { hi = mid }
            }
            return pow(10, (lo + hi) / 2)
        }
        let range = fieldOfViewDegrees
        return "\(name) = \(focal) px gives a \(axis) field of view of \(Self.format(fov))° across \(pixels) px; "
            + "a pinhole camera's must be \(Self.format(range.lowerBound))° to \(Self.format(range.upperBound))° "
            + "(\(name) from \(Self.format(focalLength(giving: range.upperBound))) to \(Self.format(focalLength(giving: range.lowerBound))) px here)"
    }

    /// Why the distortion coefficients describe no lens, or nil. Along the rays from the
    /// principal point to the image's corners, the OpenCV model must scale distances from
    /// the principal point within `distortionScale` and keep their order (a model that folds
    /// the image back on itself cannot be undistorted).
    private var distortionProblem: String? {
        guard distortion.contains(where: { $0 != 0 }) else { return nil }
        let k1 = distortion[0], k2 = distortion[1], p1 = distortion[2], p2 = distortion[3]
        let k3 = distortion.count > 4 ? distortion[4] : 0
        let coefficients = "distortion [" + distortion.map { "\($0)" }.joined(separator: ", ") + "]"
        for (u, v) in [(0.0, 0.0), (Double(width), 0), (0, Double(height)), (Double(width), Double(height))] {
            let corner = SIMD2((u - cx) / fx, (v - cy) / fy)
            var previous = 0.0
            for step in 1...64 {
                let p = corner * (Double(step) / 64)
                let r2 = p.x * p.x + p.y * p.y
                guard r2 > 0 else { continue }
                let radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
                let d = SIMD2(p.x * radial + 2 * p1 * p.x * p.y + p2 * (r2 + 2 * p.x * p.x),
                              p.y * radial + p1 * (r2 + 2 * p.y * p.y) + 2 * p2 * p.x * p.y)
                let distance = (d.x * d.x + d.y * d.y).squareRoot()
                let scale = distance / r2.squareRoot()
                let pixel = "(\(Self.format(cx + p.x * fx)), \(Self.format(cy + p.y * fy)))"
                if !Self.distortionScale.contains(scale) {
                    return "\(coefficients) scales the distance from the principal point by \(Self.format(scale)) at pixel \(pixel); "
                        + "within the image a lens stays within \(Self.format(Self.distortionScale.lowerBound))× to "
                        + "\(Self.format(Self.distortionScale.upperBound))×"
                }
                if distance <= previous {
                    return "\(coefficients) folds the image: at pixel \(pixel) points farther from the principal point "
                        + "land nearer it, which no lens does"
                }
                previous = distance
            }
        }
        return nil
    }

    /// A number for a message: 4 significant digits, whole numbers from 1000 up, and
    /// Swift's own form for the extremes (1e-300, inf).
    private static func format(_ x: Double) -> String {
        guard x.isFinite, x == 0 || (abs(x) >= 1e-3 && abs(x) < 1e9) else { return "\(x)" }
        return abs(x) >= 1000 ? String(format: "%.0f", x) : String(format: "%.4g", x)
    }

    /// Pixel of a camera-frame point (no distortion); nil behind the camera.
    public func project(_ p: SIMD3<Double>) -> SIMD2<Double>? {
        guard p.z > 1e-9 else { return nil }
        return SIMD2(fx * p.x / p.z + cx, fy * p.y / p.z + cy)
    }

    /// Unit-depth ray (z = 1) through an undistorted pixel.
    public func ray(_ pixel: SIMD2<Double>) -> SIMD3<Double> {
        SIMD3((pixel.x - cx) / fx, (pixel.y - cy) / fy, 1)
    }

    public func contains(_ pixel: SIMD2<Double>) -> Bool {
        pixel.x >= 0 && pixel.y >= 0 && pixel.x < Double(width) && pixel.y < Double(height)
    }
}
