import Formats
import Geodesy

extension FuzzTarget {
    /// The EXIF GPS reader over a JPEG's bytes (APP1 segments, the TIFF header, IFD0, the
    /// GPS IFD). A position it returns must be a valid one.
    static let exif = FuzzTarget(name: "exif", summary: "EXIF GPS position of a JPEG") { bytes in
        guard let gps = EXIFGPS.read(jpeg: bytes) else { return }
        precondition(gps.position.problem == nil, "EXIF gave an invalid position: \(gps)")
        precondition(gps.altitude?.isFinite ?? true, "EXIF gave a non-finite altitude: \(gps)")
        precondition(gps.horizontalError.map { $0.isFinite && $0 >= 0 } ?? true, "EXIF gave a bad horizontal error: \(gps)")
    }
}
