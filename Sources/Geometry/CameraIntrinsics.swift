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

    /// Why these intrinsics cannot describe a real camera, or nil when they can.
    public var problem: String? {
        if width <= 0 || height <= 0 { return "image size \(width)x\(height) is not positive" }
        if width > 16384 || height > 16384 { return "image size \(width)x\(height) is too large" }
        if !(fx.isFinite && fy.isFinite && cx.isFinite && cy.isFinite) { return "intrinsics must be finite" }
        if fx <= 0 || fy <= 0 { return "focal lengths must be positive (fx=\(fx), fy=\(fy))" }
        if fx > 100 * Double(max(width, height)) || fy > 100 * Double(max(width, height)) {
            return "focal length is implausibly large for a \(width)x\(height) image"
        }
        if cx < 0 || cx > Double(width) || cy < 0 || cy > Double(height) {
            return "principal point (\(cx), \(cy)) lies outside the \(width)x\(height) image"
        }
        if !(distortion.isEmpty || distortion.count == 4 || distortion.count == 5) {
            return "distortion needs 4 or 5 coefficients (k1 k2 p1 p2 [k3]), got \(distortion.count)"
        }
        if distortion.contains(where: { !$0.isFinite }) { return "distortion must be finite" }
        return nil
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
