import Foundation
import Geodesy

/// The GPS position a JPEG's EXIF block records (the GPS IFD of EXIF 2.3): latitude and
/// longitude, the altitude and the horizontal positioning error when present.
///
/// Reading never traps or hangs, whatever the bytes: every offset is checked before it is
/// followed, only IFD0 and the GPS IFD are read (no chain of directories), and the work is
/// linear in the input's length. Anything malformed where the position should be gives nil,
/// as does a JPEG without GPS tags.
public struct EXIFGPS: Sendable, Hashable {
    /// Degrees, −90…90, north positive (GPSLatitude with GPSLatitudeRef).
    public var latitude: Double
    /// Degrees, −180…180, east positive (GPSLongitude with GPSLongitudeRef).
    public var longitude: Double
    /// Metres above *sea level*, negative below (GPSAltitude with GPSAltitudeRef 0 or 1);
    /// nil when absent or on another reference.
    public var altitude: Double?
    /// Metres (GPSHPositioningError, tag 0x001F); nil when absent. EXIF states no
    /// confidence level for it.
    public var horizontalError: Double?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, horizontalError: Double? = nil) {
        self.latitude = latitude; self.longitude = longitude
        self.altitude = altitude; self.horizontalError = horizontalError
    }

    /// The position with `altitude` (0 when absent) as its height. EXIF measures altitude
    /// from sea level, `GeodeticPosition` from the WGS 84 ellipsoid: the height is off by
    /// the geoid undulation there (−106…+85 m), the same for every photo of one place.
    public var position: GeodeticPosition {
        GeodeticPosition(latitude: latitude, longitude: longitude, height: altitude ?? 0)
    }

    /// The position as a GPS reading for `SimilarityFit`: `horizontalError` as its
    /// accuracy, or `assumedAccuracy` (metres) when the photo states none or one outside
    /// `GPSReading.accuracyRange` (writers put 0 for unknown); no altitude accuracy (the
    /// fit's default applies). The sea-level heights shift only the fitted georeference's
    /// vertical offset.
    public func reading(assumedAccuracy: Double) -> GPSReading {
        GPSReading(position: position,
                   accuracy: horizontalError.flatMap { GPSReading.accuracyRange.contains($0) ? $0 : nil } ?? assumedAccuracy)
    }

    /// Reads the GPS position from a JPEG file's bytes; nil when there is none.
    public static func read(jpeg: Data) -> EXIFGPS? { read(jpeg: [UInt8](jpeg)) }

    /// Reads the GPS position from a JPEG's bytes: the first APP1 segment holding an EXIF
    /// block with GPS tags, before the scan. Nil when there is none or it is malformed.
    public static func read(jpeg b: [UInt8]) -> EXIFGPS? {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 3 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }                                                  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }  // no length
            if marker == 0xDA || marker == 0xD9 { return nil }                                      // scan or end
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2 else { return nil }
            // A truncated file keeps what it has of the segment: the TIFF reads check their bounds.
            let payload = b[(i + 4)..<min(i + 2 + length, b.count)]
            if marker == 0xE1, payload.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]),                  // "Exif\0\0"
               let gps = read(tiff: payload.dropFirst(6)) {
                return gps
            }
            i += 2 + length
        }
        return nil
    }

    /// Reads the GPS IFD of a TIFF structure (an EXIF block after its "Exif\0\0" header).
    static func read(tiff: ArraySlice<UInt8>) -> EXIFGPS? {
        guard let tiff = TIFFReader(tiff), let ifd0 = tiff.directory(at: tiff.firstDirectory),
              let pointer = ifd0.first(where: { $0.tag == 0x8825 }),
              let gpsOffset = tiff.unsignedIntegers(pointer, limit: 1).first,
              let gps = tiff.directory(at: Int(gpsOffset)) else { return nil }
        func entry(_ tag: UInt16) -> TIFFReader.Entry? { gps.first { $0.tag == tag } }
        /// Degrees from up to three rationals: degrees, minutes, seconds.
        func degrees(_ tag: UInt16) -> Double? {
            guard let e = entry(tag), let v = tiff.rationals(e, limit: 3), !v.isEmpty else { return nil }
            let units = [1.0, 60, 3600]
            return zip(v, units).reduce(0) { $0 + $1.0 / $1.1 }
        }
        func reference(_ tag: UInt16) -> Character? {
            guard let e = entry(tag), let c = tiff.firstByte(e) else { return nil }
            return Character(Unicode.Scalar(c)).uppercased().first
        }
        guard let lat = degrees(0x0002), let lon = degrees(0x0004), lat.isFinite, lon.isFinite,
              (0...90).contains(lat), (0...180).contains(lon) else { return nil }
        let latitude: Double, longitude: Double
        switch reference(0x0001) {
        case "N": latitude = lat
        case "S": latitude = -lat
        default: return nil
        }
        switch reference(0x0003) {
        case "E": longitude = lon
        case "W": longitude = -lon
        default: return nil
        }
        var altitude: Double?
        if let e = entry(0x0006), let a = tiff.rationals(e, limit: 1)?.first, a.isFinite {
            // GPSAltitudeRef: 0 (the default) above sea level, 1 below it; anything else is no reference we know.
            switch entry(0x0005).flatMap({ tiff.firstByte($0) }) ?? 0 {
            case 0: altitude = a
            case 1: altitude = -a
            default: altitude = nil
            }
        }
        var horizontalError: Double?
        if let e = entry(0x001F), let v = tiff.rationals(e, limit: 1)?.first, v.isFinite, v >= 0 {
            horizontalError = v
        }
        return EXIFGPS(latitude: latitude, longitude: longitude, altitude: altitude, horizontalError: horizontalError)
    }
}
