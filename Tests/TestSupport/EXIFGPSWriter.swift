import Foundation

/// Writes a GPS position into a JPEG's EXIF, as a phone does, for tests: an APP1 "Exif"
/// segment (little-endian TIFF: IFD0 holding only the GPS IFD pointer, then the GPS IFD
/// with latitude and longitude as degrees, minutes, seconds, their N/S and E/W
/// references, the altitude and, when given, GPSHPositioningError) right after the SOI.
package enum EXIFGPSWriter {
    /// `jpeg` with the APP1 segment inserted after its first two bytes (SOI); the image
    /// data is untouched.
    package static func insert(into jpeg: Data, latitude: Double, longitude: Double, altitude: Double,
                              horizontalError: Double? = nil) -> Data {
        var out = Data(jpeg.prefix(2))
        out.append(contentsOf: app1(latitude: latitude, longitude: longitude, altitude: altitude, horizontalError: horizontalError))
        out.append(jpeg.dropFirst(2))
        return out
    }

    /// The APP1 segment, marker and length included.
    package static func app1(latitude: Double, longitude: Double, altitude: Double, horizontalError: Double? = nil) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
        /// Whole degrees, whole minutes, seconds to 1/10000: 3 mm on the ground.
        func dms(_ degrees: Double) -> [(Int, Int)] {
            let a = abs(degrees), d = a.rounded(.down), m = ((a - d) * 60).rounded(.down)
            return [(Int(d), 1), (Int(m), 1), (Int(((a - d) * 3600 - m * 60) * 10_000), 10_000)]
        }
        // (tag, type, count, value bytes): type 2 ASCII, 1 BYTE, 5 RATIONAL.
        var gps: [(UInt16, UInt16, Int, [UInt8])] = [
            (0, 1, 4, [2, 3, 0, 0]),                                           // GPSVersionID 2.3
            (1, 2, 2, [latitude < 0 ? 0x53 : 0x4E, 0]), (2, 5, 3, dms(latitude).flatMap { u32($0.0) + u32($0.1) }),
            (3, 2, 2, [longitude < 0 ? 0x57 : 0x45, 0]), (4, 5, 3, dms(longitude).flatMap { u32($0.0) + u32($0.1) }),
            (5, 1, 1, [altitude < 0 ? 1 : 0]), (6, 5, 1, u32(Int((abs(altitude) * 100).rounded())) + u32(100)),
        ]
        if let e = horizontalError { gps.append((0x1F, 5, 1, u32(Int((e * 100).rounded())) + u32(100))) }
        let gpsOffset = 8 + 2 + 12 + 4
        let dataOffset = gpsOffset + 2 + 12 * gps.count + 4
        var table = u16(gps.count), data: [UInt8] = []
        for (tag, type, count, value) in gps {
            table += u16(Int(tag)) + u16(Int(type)) + u32(count)
            if value.count <= 4 {
                table += value + [UInt8](repeating: 0, count: 4 - value.count)
            } else {
                table += u32(dataOffset + data.count); data += value
            }
        }
        let ifd0 = u16(1) + u16(0x8825) + u16(4) + u32(1) + u32(gpsOffset) + u32(0)   // GPS IFD pointer, LONG
        let tiff: [UInt8] = [0x49, 0x49] + u16(42) + u32(8) + ifd0 + table + u32(0) + data
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        return [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }
}
