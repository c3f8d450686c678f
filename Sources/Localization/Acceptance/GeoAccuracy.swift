import Geodesy
import VPSModel

/// The accuracy of a GeoPose: the pose's own bounds (probability 0.95) in the map, in metres, with the
/// georeference's bounds near the camera (`Georeference.bounds(at:)`). The two errors are
/// independent, so their bounds add in quadrature.
enum GeoAccuracy {
    static func combined(_ pose: PoseAccuracy, _ georeference: Georeference, at centre: SIMD3<Double>) -> PoseAccuracy {
        let g = georeference.bounds(at: centre)
        let position = pose.position * georeference.scale
        return PoseAccuracy(position: (position * position + g.horizontal * g.horizontal).squareRoot(),
                            rotationDegrees: (pose.rotationDegrees * pose.rotationDegrees
                                              + g.headingDegrees * g.headingDegrees).squareRoot())
    }
}
