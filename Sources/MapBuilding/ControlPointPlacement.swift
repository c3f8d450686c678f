import Geodesy
import Geometry
import Vision
import VPSModel

/// Where ground control points lie in a map: each triangulated from its observations with
/// the frames' known poses and intrinsics (`Triangulator`: linear, then Gauss–Newton on
/// the pixel error), its observations undistorted first. A point is refused, with the
/// reason, when it has no surveyed position, is seen in fewer than two of the frames, its
/// rays are nearly parallel (its depth is then unknown), it lies behind a camera that saw
/// it, or an observation reprojects farther than `maxReprojectionError` (a mis-clicked or
/// mislabelled observation).
public struct ControlPointPlacement: Sendable, Hashable {
    /// Least angle between the point's viewing rays, degrees.
    public var minParallaxDegrees: Double
    /// Largest reprojection error of an observation, pixels (undistorted).
    public var maxReprojectionError: Double

    public init(minParallaxDegrees: Double = 2, maxReprojectionError: Double = 4) {
        self.minParallaxDegrees = minParallaxDegrees; self.maxReprojectionError = maxReprojectionError
    }

    /// A point placed in the map.
    public struct Placed: Sendable, Hashable {
        public var id: String
        /// Map coordinates (map units).
        public var mapPosition: SIMD3<Double>
        /// The surveyed position.
        public var position: GeodeticPosition
        public var hasAltitude: Bool
        /// Largest reprojection error over its observations, pixels.
        public var maxError: Double
    }

    /// A point that cannot be used, and why.
    public struct Refused: Sendable, Hashable {
        public var id: String
        public var reason: String
    }

    /// Places each point; observations in frames not named in `frames` are left out (the
    /// point's `unmatchedImages` already lists the images the reader could not match).
    public func place(_ points: [ControlPoint], frames: [MapBuildFrame]) -> (placed: [Placed], refused: [Refused]) {
        var byName: [String: MapBuildFrame] = [:]
        for f in frames where byName[f.name] == nil { byName[f.name] = f }
        // Reprojection is judged here against the stated bound; parallax by the triangulator.
        let triangulator = Triangulator(minParallaxDegrees: minParallaxDegrees, maxError: maxReprojectionError, refine: true)
        var placed: [Placed] = [], refused: [Refused] = []
        for p in points {
            func refuse(_ reason: String) { refused.append(Refused(id: p.id, reason: reason)) }
            guard let position = p.position else { refuse("no surveyed position"); continue }
            let seen = p.observations.compactMap { o in byName[o.frame].map { (o, $0) } }
            guard seen.count >= 2 else {
                refuse("seen in \(seen.count) of the build's frames; 2 are needed to triangulate it")
                continue
            }
            var views: [CameraView] = [], pixels: [SIMD2<Double>] = []
            do {
                for (o, frame) in seen {
                    var k = frame.intrinsics
                    pixels.append(k.distortion.isEmpty ? o.pixel : try k.undistort([o.pixel])[0])
                    k.distortion = []
                    views.append(CameraView(pose: frame.pose, intrinsics: k))
                }
            } catch {
                refuse("an observation cannot be undistorted: \(error)")
                continue
            }
            guard let t = try? triangulator.triangulate(views: views, pixels: pixels) else {
                refuse("its rays do not meet (degenerate)")
                continue
            }
            switch t.status {
            case .ok:
                placed.append(Placed(id: p.id, mapPosition: t.position, position: position, hasAltitude: p.hasAltitude,
                                     maxError: t.maxError))
            case .lowParallax:
                refuse(String(format: "its rays are nearly parallel (%.2f° apart, at least %.2f° needed)",
                              t.parallaxDegrees, minParallaxDegrees))
            case .behindCamera: refuse("it triangulates behind a camera that saw it")
            case .highError:
                let worst = t.errors.indices.max { t.errors[$0] < t.errors[$1] }.map { seen[$0].0.frame } ?? "?"
                refuse(String(format: "reprojection error %.1f px in '%@' (at most %.1f px)", t.maxError, worst,
                              maxReprojectionError))
            case .degenerate: refuse("its rays do not meet (degenerate)")
            }
        }
        return (placed, refused)
    }
}
