import Foundation
import Geometry
import VPSModel

/// Reads COLMAP's binary model files, `cameras.bin` and `images.bin` (little-endian, as
/// COLMAP's `WriteCamerasBinary` / `WriteImagesBinary` write them):
///
/// - `cameras.bin`: `uint64` count, then per camera `uint32` id, `int32` model id, `uint64`
///   width, `uint64` height and the model's `double` parameters.
/// - `images.bin`: `uint64` count, then per image `uint32` id, `double` qw qx qy qz
///   tx ty tz, `uint32` camera id, the name (NUL-terminated), `uint64` number of 2D points
///   and per point `double` x, `double` y, `int64` 3D point id.
///
/// Counts are checked against the bytes that remain before anything is allocated, so a
/// damaged file gives an error naming the file, the record and the byte offset.
public enum COLMAPBinaryReader {
    public static func read(directory: URL) throws -> COLMAPModel {
        let camerasURL = directory.appendingPathComponent("cameras.bin")
        let imagesURL = directory.appendingPathComponent("images.bin")
        let cameras = try parseCameras(try COLMAPModel.contents(of: camerasURL), file: camerasURL.path)
        let images = try parseImages(try COLMAPModel.contents(of: imagesURL), file: imagesURL.path)
        return try COLMAPModel(format: .binary, cameras: cameras, images: images)
    }

    public static func parseCameras(_ data: Data, file: String = "cameras.bin") throws -> [COLMAPModel.Camera] {
        try readRecords(data, file: file, minimumRecordSize: 24, "cameras", each: "camera record") { r, k in
            let id = Int(try r.uint32())
            let modelId = Int(try r.int32())
            let width = try r.uint64(), height = try r.uint64()
            guard let model = COLMAPCameraModel.name(ofId: modelId) else {
                throw r.error("camera \(id) has model id \(modelId), which is not a COLMAP camera model this build knows")
            }
            guard width > 0, width <= 1 << 20, height > 0, height <= 1 << 20 else {
                throw r.error("camera \(id): image size \(width)x\(height) is not plausible")
            }
            let params = try (0..<COLMAPCameraModel.parameterCount(of: model)!).map { _ in try r.finite("camera parameter") }
            return COLMAPModel.Camera(id: id, model: model, width: Int(width), height: Int(height), params: params,
                                      source: .init(file: file, record: k + 1))
        }
    }

    public static func parseImages(_ data: Data, file: String = "images.bin") throws -> [COLMAPModel.Image] {
        try readRecords(data, file: file, minimumRecordSize: 69, "images", each: "image record") { r, k in
            let id = Int(try r.uint32())
            let v = try (0..<7).map { _ in try r.finite("pose value") }
            let camera = Int(try r.uint32())
            let name = try r.cString()
            let here = COLMAPModel.Location(file: file, record: k + 1)
            guard !name.isEmpty else { throw r.error("image \(id) has an empty name") }
            let pose = try COLMAPTextReader.worldToCamera(qw: v[0], qx: v[1], qy: v[2], qz: v[3],
                                                          t: SIMD3(v[4], v[5], v[6]), at: here)
            let points = try r.count(minimumRecordSize: 24, "2D points of image \(id)")
            try r.skip(points * 24)
            return COLMAPModel.Image(id: id, name: name, cameraId: camera, worldToCamera: pose, source: here)
        }
    }

    /// Reads a file of records: a 64-bit count (at most what `minimumRecordSize`-byte
    /// records could fill), then each record by `read` (given its index, from 0), then the
    /// end of the file. Errors name the record as "`each` k+1".
    static func readRecords<Record>(_ data: Data, file: String, minimumRecordSize: Int, _ what: String, each: String,
                                    _ read: (inout Cursor, Int) throws -> Record) throws -> [Record] {
        var r = Cursor(bytes: [UInt8](data), file: file)
        let count = try r.count(minimumRecordSize: minimumRecordSize, what)
        var out: [Record] = []
        for k in 0..<count {
            r.record = "\(each) \(k + 1)"
            out.append(try read(&r, k))
        }
        try r.expectEnd()
        return out
    }

    /// Reads little-endian values with bounds checks.
    struct Cursor {
        let bytes: [UInt8]
        let file: String
        var offset = 0
        /// The record being read, named in errors.
        var record = "header"

        init(bytes: [UInt8], file: String) { self.bytes = bytes; self.file = file }

        func error(_ message: String) -> DatasetImportError {
            DatasetImportError(file, "\(record), byte \(offset): \(message)")
        }

        private mutating func take(_ n: Int) throws -> ArraySlice<UInt8> {
            guard n >= 0, bytes.count - offset >= n else {
                throw error("the file ends early (\(bytes.count) bytes; \(n) more needed): truncated or not a COLMAP model")
            }
            defer { offset += n }
            return bytes[offset..<offset + n]
        }

        private mutating func integer(_ size: Int) throws -> UInt64 {
            var v: UInt64 = 0
            for (i, b) in try take(size).enumerated() { v |= UInt64(b) << (8 * UInt64(i)) }
            return v
        }

        mutating func uint64() throws -> UInt64 { try integer(8) }
        mutating func uint32() throws -> UInt32 { UInt32(try integer(4)) }
        mutating func int32() throws -> Int32 { Int32(bitPattern: UInt32(try integer(4))) }

        mutating func finite(_ what: String) throws -> Double {
            let v = Double(bitPattern: try integer(8))
            guard v.isFinite else {
                offset -= 8
                throw error("\(what) \(v) is not finite")
            }
            return v
        }

        /// A record count that the remaining bytes can hold.
        mutating func count(minimumRecordSize: Int, _ what: String) throws -> Int {
            let n = try uint64()
            guard n <= UInt64((bytes.count - offset) / minimumRecordSize) else {
                offset -= 8
                throw error("says \(n) \(what), more than the \(bytes.count - offset - 8) remaining bytes can hold")
            }
            return Int(n)
        }

        mutating func skip(_ n: Int) throws { _ = try take(n) }

        /// A NUL-terminated UTF-8 string.
        mutating func cString() throws -> String {
            guard let end = bytes[offset...].firstIndex(of: 0) else {
                throw error("the image name has no terminating NUL before the end of the file")
            }
            let raw = bytes[offset..<end]
            offset = end + 1
            guard let s = String(bytes: raw, encoding: .utf8) else { throw error("the image name is not UTF-8") }
            return s
        }

        func expectEnd() throws {
            guard offset == bytes.count else {
                throw DatasetImportError(file, "\(bytes.count - offset) bytes follow the last record: not a COLMAP model of this format")
            }
        }
    }
}
