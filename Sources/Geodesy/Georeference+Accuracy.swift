import Foundation

extension Georeference {
    /// Bounds at probability 0.95 on the georeference's own error near `mapPoint`: how far from the truth
    /// it may put that point horizontally (metres), and how far its heading may turn
    /// (degrees). Zero for a georeference set by hand or from control points without
    /// residuals: the user vouches for it.
    ///
    /// A fit to n GPS readings of per-axis scatter σ (from the residuals, with the four
    /// parameters of a yaw, a scale and a horizontal shift taken out) spread s metres around
    /// their centroid has, to first order, a shift error of σ/√n and a heading error of
    /// σ/(s√n) radians; a point d metres from the centroid moves by the heading error times
    /// d as well. The circle holding a circular normal error with probability 0.95 is 2.4477 σ.
    public func bounds(at mapPoint: SIMD3<Double>) -> (horizontal: Double, headingDegrees: Double) {
        guard let r = residuals, r.inliers > 2 else { return (0, 0) }
        let n = Double(r.inliers)
        let dof = max(2 * n - 4, 1)
        let sigma = r.horizontalRMS * (n / dof).squareRoot()
        let shift = sigma / n.squareRoot()
        guard let centroid = r.centroid, let spread = r.spread, spread > 0 else {
            return (2.447_746_830_680_816 * shift, 0)
        }
        let heading = sigma / (spread * n.squareRoot())
        let e = enu(ofMapPoint: mapPoint) - centroid
        let d = (e.x * e.x + e.y * e.y).squareRoot()
        let horizontal = (shift * shift + heading * heading * d * d).squareRoot()
        return (2.447_746_830_680_816 * horizontal, 1.959_963_984_540_054 * heading * 180 / .pi)
    }
}
