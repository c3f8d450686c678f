import Foundation
import Geodesy

extension EXIFGPS {
    /// The horizontal accuracy (metres, at probability 0.95) a photo's reading is given
    /// when its EXIF states none (`GPSHPositioningError` is rare outside iPhones). Phone GPS
    /// in a street is good to 5–15 m, worse between tall buildings: the upper end, so
    /// that the fit's 3σ test does not throw out ordinary readings as outliers, and a
    /// reading that does state its error outweighs these.
    public static let assumedAccuracy = 15.0

    /// How much of a file is read for its EXIF: a JPEG's APP1 segment, which holds it,
    /// is at most 64 KiB and comes before the image data.
    public static let headerLength = 65_536

    /// The GPS position in the EXIF of the image file at `url`, reading only its first
    /// `headerLength` bytes; nil for an unreadable file, a PNG, or a JPEG without GPS tags.
    public static func read(file url: URL) -> EXIFGPS? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let bytes = try? handle.read(upToCount: headerLength) else { return nil }
        return read(jpeg: bytes)
    }

    /// The GPS reading of the photo at `url` for a session frame or a map build frame:
    /// its EXIF position with the accuracy it states, else `assumedAccuracy`.
    public static func photoReading(at url: URL) -> GPSReading? {
        read(file: url)?.reading(assumedAccuracy: assumedAccuracy)
    }
}
