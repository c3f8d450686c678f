import Foundation
import Geometry

extension Georeference {
    /// The GeoPose of a camera whose pose in the map is `cameraToMap` (`T_map_camera`,
    /// OpenCV camera axes, see `Pose`).
    ///
    /// The orientation is relative to the ENU frame at the camera's own position, as GeoPose
    /// requires, not at this georeference's origin: the two differ by the angle between the
    /// ellipsoid's normals at the two places (0.009° per kilometre), and the rotation
    /// between them goes through ECEF exactly. The map's scale does not affect orientation.
    public func geoPose(cameraToMap: Pose) -> GeoPose {
        let originFrame = frame
        let centre = originFrame.ecef(fromENU: enu(ofMapPoint: cameraToMap.translation))
        let position = GeodeticPosition(ecef: centre)
        let cameraFrame = LocalTangentFrame(origin: position)
        let enuFromCamera = rotation.matrix * cameraToMap.rotation.matrix
        let bodyToENU = originFrame.rotation(to: cameraFrame) * enuFromCamera * GeoPose.openCVCameraToBody.transposed
        return GeoPose(position: position, quaternion: Quaternion(bodyToENU))
    }

    /// The camera pose in the map (`T_map_camera`, OpenCV camera axes) of a GeoPose: the
    /// inverse of `geoPose(cameraToMap:)`.
    public func cameraToMap(from geoPose: GeoPose) -> Pose {
        let cameraFrame = LocalTangentFrame(origin: geoPose.position)
        let bodyToOriginENU = cameraFrame.rotation(to: frame) * geoPose.quaternion.matrix
        let mapFromCamera = rotation.conjugate.matrix * bodyToOriginENU * GeoPose.openCVCameraToBody
        return Pose(rotationMatrix: mapFromCamera, translation: mapPoint(of: geoPose.position))
    }
}
