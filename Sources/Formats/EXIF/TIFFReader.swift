/// Bounds-checked reads from a TIFF structure (an EXIF block is one): the byte order its
/// header names, image file directories (IFDs) and their entries' values.
///
/// Every offset is checked against the bytes before it is followed; a read that would
/// leave them gives nil. It never follows chains of IFDs, so no input can make it loop.
struct TIFFReader {
    /// One IFD entry: where its value lies (`valueOffset`, from the TIFF header), already
    /// checked to be inside the bytes.
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: Int
        var valueOffset: Int
    }

    /// The TIFF bytes, indexed from 0 at the byte-order mark.
    private let bytes: [UInt8]
    private let bigEndian: Bool
    /// Offset of IFD0.
    let firstDirectory: Int

    /// Reads the 8-byte header: "II" (little-endian) or "MM" (big-endian), 42, IFD0's offset.
    init?(_ tiff: ArraySlice<UInt8>) {
        bytes = Array(tiff)
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        guard Self.uint16(bytes, at: 2, bigEndian: bigEndian) == 42,
              let ifd0 = Self.uint32(bytes, at: 4, bigEndian: bigEndian) else { return nil }
        firstDirectory = Int(ifd0)
    }

    func uint16(at offset: Int) -> UInt16? { Self.uint16(bytes, at: offset, bigEndian: bigEndian) }
    func uint32(at offset: Int) -> UInt32? { Self.uint32(bytes, at: offset, bigEndian: bigEndian) }

    private static func uint16(_ bytes: [UInt8], at offset: Int, bigEndian: Bool) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int, bigEndian: Bool) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        let v = bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return bigEndian ? v : v.byteSwapped
    }

    /// The entries of the IFD at `offset`; nil when its table does not fit in the bytes.
    /// Entries of an unknown type, or whose value would lie outside the bytes, are left out.
    func directory(at offset: Int) -> [Entry]? {
        guard let n = uint16(at: offset), offset + 2 + 12 * Int(n) <= bytes.count else { return nil }
        var entries: [Entry] = []
        for k in 0..<Int(n) {
            let e = offset + 2 + 12 * k
            guard let tag = uint16(at: e), let type = uint16(at: e + 2), let count = uint32(at: e + 4),
                  let size = Self.size(ofType: type) else { continue }
            // In 64 bits, count × size cannot overflow; anything larger than the bytes is refused.
            let total = Int(count) * size
            guard total <= bytes.count else { continue }
            var valueOffset = e + 8
            if total > 4 {
                guard let pointer = uint32(at: e + 8) else { continue }
                valueOffset = Int(pointer)
            }
            guard valueOffset <= bytes.count - total else { continue }
            entries.append(Entry(tag: tag, type: type, count: Int(count), valueOffset: valueOffset))
        }
        return entries
    }

    /// The first byte of a BYTE, ASCII, SBYTE or UNDEFINED value.
    func firstByte(_ e: Entry) -> UInt8? {
        guard [1, 2, 6, 7].contains(e.type), e.count >= 1 else { return nil }
        return bytes[e.valueOffset]
    }

    /// The values of a SHORT or LONG (unsigned integer) entry, up to `limit` of them.
    func unsignedIntegers(_ e: Entry, limit: Int) -> [UInt32] {
        let n = min(e.count, limit)
        switch e.type {
        case 3: return (0..<n).compactMap { uint16(at: e.valueOffset + 2 * $0).map(UInt32.init) }
        case 4, 13: return (0..<n).compactMap { uint32(at: e.valueOffset + 4 * $0) }
        default: return []
        }
    }

    /// The values of a RATIONAL or SRATIONAL entry, up to `limit` of them; nil if any
    /// denominator is 0 (what writers put for "unknown").
    func rationals(_ e: Entry, limit: Int) -> [Double]? {
        guard e.type == 5 || e.type == 10 else { return nil }
        var out: [Double] = []
        for k in 0..<min(e.count, limit) {
            guard let n = uint32(at: e.valueOffset + 8 * k), let d = uint32(at: e.valueOffset + 8 * k + 4), d != 0 else {
                return nil
            }
            out.append(e.type == 5 ? Double(n) / Double(d) : Double(Int32(bitPattern: n)) / Double(Int32(bitPattern: d)))
        }
        return out
    }

    /// Bytes per value of each TIFF 6.0 / EXIF type; nil for unknown types.
    private static func size(ofType type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: return 1        // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: return 2              // SHORT, SSHORT
        case 4, 9, 11, 13: return 4      // LONG, SLONG, FLOAT, IFD
        case 5, 10, 12: return 8         // RATIONAL, SRATIONAL, DOUBLE
        default: return nil
        }
    }
}
