import Foundation
import Formats
import Geodesy
import Support
import TestSupport
import Testing

/// JPEGs built byte by byte: an APP0, an APP1 with an EXIF block (IFD0 → GPS IFD), a scan.
struct EXIFBuilder {
    /// One TIFF entry: its tag, type, count and the value's bytes (already in byte order).
    struct Entry { var tag: UInt16, type: UInt16, count: UInt32, value: [UInt8] }

    var bigEndian: Bool

    func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: UInt32) -> [UInt8] {
        let b = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        return bigEndian ? b : b.reversed()
    }
    func rationals(_ values: [(UInt32, UInt32)]) -> [UInt8] { values.flatMap { u32($0.0) + u32($0.1) } }

    func ascii(_ tag: UInt16, _ text: String) -> Entry { Entry(tag: tag, type: 2, count: UInt32(text.utf8.count + 1), value: Array(text.utf8) + [0]) }
    func rational(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> Entry {
        Entry(tag: tag, type: 5, count: UInt32(values.count), value: rationals(values))
    }
    func byte(_ tag: UInt16, _ v: UInt8) -> Entry { Entry(tag: tag, type: 1, count: 1, value: [v]) }

    /// 48°51′23.76″ N, 2°21′7.92″ E, 35.5 m above sea level, 4.5 m horizontal error.
    func paris() -> [Entry] {
        [Entry(tag: 0, type: 1, count: 4, value: [2, 3, 0, 0]),
         ascii(1, "N"), rational(2, [(48, 1), (51, 1), (2376, 100)]),
         ascii(3, "E"), rational(4, [(2, 1), (21, 1), (792, 100)]),
         byte(5, 0), rational(6, [(355, 10)]), rational(0x1F, [(9, 2)])]
    }

    /// A TIFF structure: header, IFD0 with the GPS IFD pointer (and a make string), the
    /// GPS IFD, then the values that do not fit in 4 bytes.
    func tiff(gps: [Entry], pointer: UInt32? = nil) -> [UInt8] {
        let ifd0 = [ascii(0x010F, "arcloud"), Entry(tag: 0x8825, type: 4, count: 1, value: [])]
        let ifd0Offset = 8, gpsOffset = ifd0Offset + 2 + 12 * ifd0.count + 4
        // Both tables first, then the long values of IFD0's entries and the GPS IFD's, in order.
        let dataOffset = gpsOffset + 2 + 12 * gps.count + 4
        var data: [UInt8] = []
        func table(_ entries: [Entry]) -> [UInt8] {
            var out = u16(UInt16(entries.count))
            for e in entries {
                out += u16(e.tag) + u16(e.type) + u32(e.count)
                if e.tag == 0x8825, e.type == 4, e.value.isEmpty {
                    out += u32(pointer ?? UInt32(gpsOffset))
                } else if e.value.count <= 4 {
                    out += e.value + [UInt8](repeating: 0, count: 4 - e.value.count)
                } else {
                    out += u32(UInt32(dataOffset + data.count)); data += e.value
                }
            }
            return out + u32(0)
        }
        let header: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(UInt32(ifd0Offset))
        let first = table(ifd0), second = table(gps)
        return header + first + second + data
    }

    static func jpeg(exif tiff: [UInt8], before: [[UInt8]] = []) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        out += [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        for segment in before { out += segment }
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        out += [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        out += [0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 0x3F, 0, 0x12, 0x34, 0xFF, 0xD9]
        return out
    }
}

@Suite struct EXIFGPSTests {
    @Test(arguments: [false, true]) func readsBothByteOrders(bigEndian: Bool) throws {
        let b = EXIFBuilder(bigEndian: bigEndian)
        let gps = try #require(EXIFGPS.read(jpeg: EXIFBuilder.jpeg(exif: b.tiff(gps: b.paris()))))
        #expect(abs(gps.latitude - (48 + 51.0 / 60 + 23.76 / 3600)) < 1e-12)
        #expect(abs(gps.longitude - (2 + 21.0 / 60 + 7.92 / 3600)) < 1e-12)
        #expect(gps.altitude == 35.5 && gps.horizontalError == 4.5)
        #expect(gps.position == GeodeticPosition(latitude: gps.latitude, longitude: gps.longitude, height: 35.5))
        let reading = gps.reading(assumedAccuracy: 20)
        #expect(reading.accuracy == 4.5 && reading.altitudeAccuracy == nil && reading.problem == nil)
    }

    @Test func southWestBelowSeaLevelAndDecimalDegrees() throws {
        let b = EXIFBuilder(bigEndian: true)
        let entries = [b.ascii(1, "S"), b.rational(2, [(338_688, 10_000)]), b.ascii(3, "W"),
                       b.rational(4, [(151, 1), (12, 1), (36, 1)]), b.byte(5, 1), b.rational(6, [(28, 1)])]
        let gps = try #require(EXIFGPS.read(jpeg: EXIFBuilder.jpeg(exif: b.tiff(gps: entries))))
        #expect(abs(gps.latitude - -33.8688) < 1e-12 && abs(gps.longitude - -151.21) < 1e-12)
        #expect(gps.altitude == -28 && gps.horizontalError == nil)
        #expect(gps.reading(assumedAccuracy: 20).accuracy == 20)
    }

    /// The fuzz target's seeds (`fuzz/corpus/exif/`) are these same JPEGs, written by hand.
    @Test func fuzzSeedsAreTheBuiltJPEGs() throws {
        for (name, bigEndian) in [("gps-little-endian.jpg", false), ("gps-big-endian.jpg", true)] {
            let url = PackageDirectory.root.appendingPathComponent("fuzz/corpus/exif/" + name)
            let b = EXIFBuilder(bigEndian: bigEndian)
            #expect([UInt8](try Data(contentsOf: url)) == EXIFBuilder.jpeg(exif: b.tiff(gps: b.paris())))
        }
    }

    /// Another APP1 (XMP) before the EXIF one is passed over.
    /// The tests' writer (`EXIFGPSWriter`) and the reader agree, through a file read only
    /// as far as its header: a JPEG far larger than `headerLength` still gives its GPS.
    @Test func readsBackWhatTheTestWriterWrote() throws {
        let image = try Data(contentsOf: PackageDirectory.root.appendingPathComponent("Datasets/street-query-walk/frames/000000.jpg"))
        let file = try ScratchDirectory("exif-file")
        let url = file.url.appendingPathComponent("photo.jpg")
        for (lat, lon, alt, error) in [(52.3731, 4.8922, 2.5, 4.5 as Double?), (-33.8568, -151.2153, -3.25, nil)] {
            let padded = EXIFGPSWriter.insert(into: image, latitude: lat, longitude: lon, altitude: alt, horizontalError: error)
                + Data(count: 2 * EXIFGPS.headerLength)
            try padded.write(to: url)
            let gps = try #require(EXIFGPS.read(file: url))
            #expect(abs(gps.latitude - lat) < 1e-7 && abs(gps.longitude - lon) < 1e-7)
            #expect(abs(gps.altitude! - alt) < 1e-9 && gps.horizontalError == error)
            #expect(EXIFGPS.photoReading(at: url)?.accuracy == error ?? EXIFGPS.assumedAccuracy)
        }
        try image.write(to: url)
        #expect(EXIFGPS.read(file: url) == nil)
        #expect(EXIFGPS.read(file: file.url.appendingPathComponent("missing.jpg")) == nil)
    }

    @Test func findsTheEXIFAmongOtherSegments() throws {
        let b = EXIFBuilder(bigEndian: false)
        let xmp = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array("<x:xmpmeta/>".utf8)
        let app1 = [0xFF, 0xE1, UInt8((xmp.count + 2) >> 8), UInt8((xmp.count + 2) & 0xFF)] + xmp
        #expect(EXIFGPS.read(jpeg: EXIFBuilder.jpeg(exif: b.tiff(gps: b.paris()), before: [app1, [0xFF, 0xFF]])) != nil)
    }

    @Test func nilWithoutAUsablePosition() {
        let b = EXIFBuilder(bigEndian: false)
        let paris = b.paris()
        let cases: [[EXIFBuilder.Entry]] = [
            [],                                                                 // an empty GPS IFD
            paris.filter { $0.tag != 2 },                                       // no latitude
            paris.filter { $0.tag != 3 },                                       // no longitude reference
            paris.map { $0.tag == 1 ? b.ascii(1, "X") : $0 },                   // no hemisphere
            paris.map { $0.tag == 2 ? b.rational(2, [(48, 1), (51, 0), (0, 1)]) : $0 },   // 0 denominator
            paris.map { $0.tag == 2 ? b.rational(2, [(91, 1)]) : $0 },          // beyond the pole
            paris.map { $0.tag == 2 ? EXIFBuilder.Entry(tag: 2, type: 3, count: 3, value: [0, 48, 0, 51, 0, 2]) : $0 },
        ]
        for entries in cases {
            #expect(EXIFGPS.read(jpeg: EXIFBuilder.jpeg(exif: b.tiff(gps: entries))) == nil)
        }
        // No GPS pointer, a pointer outside the block, a pointer at IFD0 itself.
        var tiff = b.tiff(gps: paris)
        tiff[8 + 2 + 12 + 1] = 0x00; tiff[8 + 2 + 12] = 0x01                  // tag 0x8825 → 0x0001
        #expect(EXIFGPS.read(jpeg: EXIFBuilder.jpeg(exif: tiff)) == nil)
        #expect(EXIFGPS.read(jpeg: EXIFBuilder.jpeg(exif: b.tiff(gps: paris, pointer: 0xFFFF_FFF0))) == nil)
        #expect(EXIFGPS.read(jpeg: EXIFBuilder.jpeg(exif: b.tiff(gps: paris, pointer: 8))) == nil)
        // Not a JPEG, a JPEG without EXIF, EXIF after the scan.
        #expect(EXIFGPS.read(jpeg: [0x89, 0x50, 0x4E, 0x47]) == nil)
        #expect(EXIFGPS.read(jpeg: [0xFF, 0xD8, 0xFF, 0xDA, 0, 2, 0xFF, 0xD9]) == nil)
        #expect(EXIFGPS.read(jpeg: [0xFF, 0xD8, 0xFF, 0xDA, 0, 2] + EXIFBuilder.jpeg(exif: b.tiff(gps: paris)).dropFirst(2)) == nil)
        #expect(EXIFGPS.read(jpeg: Data()) == nil)
    }

    /// An unknown altitude reference or a zero denominator drops the altitude, not the position.
    @Test func badAltitudeKeepsThePosition() throws {
        let b = EXIFBuilder(bigEndian: true)
        for altitude in [[b.byte(5, 7), b.rational(6, [(10, 1)])], [b.byte(5, 0), b.rational(6, [(10, 0)])]] {
            let entries = b.paris().filter { $0.tag != 5 && $0.tag != 6 } + altitude
            let gps = try #require(EXIFGPS.read(jpeg: EXIFBuilder.jpeg(exif: b.tiff(gps: entries))))
            #expect(gps.altitude == nil && gps.position.height == 0)
        }
    }

    /// Huge counts, offsets past the end and counts that overflow a 32-bit size are refused
    /// without reading out of bounds.
    @Test func hostileEntries() {
        let b = EXIFBuilder(bigEndian: false)
        var huge = b.paris()
        huge[2] = EXIFBuilder.Entry(tag: 2, type: 5, count: 0xFFFF_FFFF, value: b.rationals([(48, 1), (51, 1), (2376, 100)]))
        #expect(EXIFGPS.read(jpeg: EXIFBuilder.jpeg(exif: b.tiff(gps: huge))) == nil)
        var tiff = b.tiff(gps: b.paris())
        // The GPS IFD claims 65 535 entries.
        let gps = 8 + 2 + 12 * 2 + 4
        tiff[gps] = 0xFF; tiff[gps + 1] = 0xFF
        #expect(EXIFGPS.read(jpeg: EXIFBuilder.jpeg(exif: tiff)) == nil)
    }

    /// Random mutations, truncations and garbage: reading never traps, and any position it
    /// returns is a valid one.
    @Test func mutatedInputsNeverTrap() {
        var rng = SplitMix64(seed: 2024)
        let seeds = [false, true].map { EXIFBuilder.jpeg(exif: EXIFBuilder(bigEndian: $0).tiff(gps: EXIFBuilder(bigEndian: $0).paris())) }
        var found = 0
        for k in 0..<30_000 {
            var bytes = seeds[k % 2]
            switch rng.next() % 4 {
            case 0:    // flip a few bytes
                for _ in 0..<(1 + Int(rng.next() % 8)) { bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next()) }
            case 1:    // truncate
                bytes = Array(bytes.prefix(Int(rng.next() % UInt64(bytes.count + 1))))
            case 2:    // insert or delete a run
                let at = Int(rng.next() % UInt64(bytes.count)), n = 1 + Int(rng.next() % 16)
                if rng.next() % 2 == 0 {
                    bytes.insert(contentsOf: (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }, at: at)
                } else {
                    bytes.removeSubrange(at..<min(bytes.count, at + n))
                }
            default:   // garbage after a JPEG and APP1 start
                bytes = [0xFF, 0xD8, 0xFF, 0xE1] + (0..<Int(rng.next() % 300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            }
            if let gps = EXIFGPS.read(jpeg: bytes) {
                found += 1
                #expect(gps.position.problem == nil)
                #expect(gps.altitude?.isFinite ?? true)
                #expect(gps.horizontalError.map { $0.isFinite && $0 >= 0 } ?? true)
            }
        }
        #expect(found > 1000, "mutations that leave the position readable should mostly still read: \(found)")
    }
}
