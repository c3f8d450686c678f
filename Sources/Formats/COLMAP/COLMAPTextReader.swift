import Foundation
import Geometry
import VPSModel

/// Reads COLMAP's text model files, `cameras.txt` and `images.txt`.
///
/// Fields are separated by spaces or tabs; CRLF line ends and a UTF-8 byte order mark are
/// accepted; `#` starts a comment line. Every number must be finite. Errors name the file
/// and the line.
public enum COLMAPTextReader {
    /// Reads `cameras.txt` and `images.txt` from `directory`.
    public static func read(directory: URL) throws -> COLMAPModel {
        let camerasURL = directory.appendingPathComponent("cameras.txt")
        let imagesURL = directory.appendingPathComponent("images.txt")
        let cameras = try parseCameras(try text(of: camerasURL), file: camerasURL.path)
        let images = try parseImages(try text(of: imagesURL), file: imagesURL.path)
        return try COLMAPModel(format: .text, cameras: cameras, images: images)
    }

    /// Parses `cameras.txt`: `CAMERA_ID MODEL WIDTH HEIGHT PARAMS…` per line. Any model
    /// name is read; whether arcloud can use it is `Camera.intrinsics()`'s question.
    public static func parseCameras(_ text: String, file: String = "cameras.txt") throws -> [COLMAPModel.Camera] {
        var out: [COLMAPModel.Camera] = []
        for (n, line) in lines(text) where !line.isEmpty && !line.hasPrefix("#") {
            let here = COLMAPModel.Location(file: file, line: n)
            let f = fields(line)
            guard f.count >= 4, let id = Int(f[0]), let w = Int(f[2]), let h = Int(f[3]) else {
                throw here.error("expected 'CAMERA_ID MODEL WIDTH HEIGHT PARAMS…'")
            }
            let model = f[1].uppercased()
            let params = try f.dropFirst(4).map { try finite($0, "camera parameter", here) }
            if let need = COLMAPCameraModel.parameterCount(of: model), params.count != need {
                throw here.error("camera \(id): \(model) needs \(need) parameters, got \(params.count)")
            }
            out.append(.init(id: id, model: model, width: w, height: h, params: params, source: here))
        }
        return out
    }

    /// Parses `images.txt`: per image a line `IMAGE_ID QW QX QY QZ TX TY TZ CAMERA_ID NAME`
    /// followed by its POINTS2D line (`X Y POINT3D_ID` triples, empty when it has none).
    public static func parseImages(_ text: String, file: String = "images.txt") throws -> [COLMAPModel.Image] {
        var out: [COLMAPModel.Image] = []
        let all = lines(text).filter { !$0.text.hasPrefix("#") }
        var i = 0
        while i < all.count {
            let (n, line) = all[i]
            i += 1
            if line.isEmpty { continue }   // blank lines between entries, or at the end
            let here = COLMAPModel.Location(file: file, line: n)
            let f = fields(line, limit: 10)
            guard f.count == 10, let id = Int(f[0]), let camera = Int(f[8]) else {
                throw here.error("expected 'IMAGE_ID QW QX QY QZ TX TY TZ CAMERA_ID NAME'")
            }
            let v = try f[1...7].map { try finite($0, "pose value", here) }
            let pose = try worldToCamera(qw: v[0], qx: v[1], qy: v[2], qz: v[3], t: SIMD3(v[4], v[5], v[6]), at: here)
            out.append(.init(id: id, name: f[9], cameraId: camera, worldToCamera: pose, source: here))
            // The POINTS2D line: required by the format, possibly empty. A line that is not
            // point triples means it was left out and an image line follows: say so rather
            // than silently dropping that image.
            if i < all.count {
                let points = fields(all[i].text)
                if points.count % 3 != 0 || points.contains(where: { Double($0) == nil }) {
                    throw COLMAPModel.Location(file: file, line: all[i].line)
                        .error("expected the POINTS2D line of image \(id) (X Y POINT3D_ID triples, or an empty line)")
                }
                i += 1
            }
        }
        return out
    }

    /// COLMAP's `qvec` (w, x, y, z) and `tvec` as a pose; the quaternion must be unit.
    static func worldToCamera(qw: Double, qx: Double, qy: Double, qz: Double, t: SIMD3<Double>,
                              at here: COLMAPModel.Location) throws -> Pose {
        let q = Quaternion(x: qx, y: qy, z: qz, w: qw)
        guard abs(q.norm - 1) < 1e-3 else {
            throw here.error("qvec is not a unit quaternion (norm \(q.norm))")
        }
        return Pose(rotation: q.normalized, translation: t)
    }

    static func finite(_ s: String, _ what: String, _ here: COLMAPModel.Location) throws -> Double {
        guard let v = Double(s) else { throw here.error("\(what) '\(s)' is not a number") }
        guard v.isFinite else { throw here.error("\(what) '\(s)' is not finite") }
        return v
    }

    /// Lines with their 1-based numbers, trimmed of spaces, tabs and CR. (A Swift string
    /// holds CRLF as one character, which splitting on "\n" alone does not split.)
    static func lines(_ text: String) -> [(line: Int, text: String)] {
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        return body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated().map {
            ($0.offset + 1, $0.element.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Whitespace-separated fields; with `limit`, the last field is the rest of the line
    /// (an image name may contain spaces).
    static func fields(_ line: String, limit: Int = .max) -> [String] {
        var out: [String] = []
        var rest = Substring(line)
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { break }
            if out.count == limit - 1 { out.append(String(rest)); break }
            let end = rest.firstIndex { $0 == " " || $0 == "\t" } ?? rest.endIndex
            out.append(String(rest[..<end]))
            rest = rest[end...]
        }
        return out
    }

    private static func text(of url: URL) throws -> String {
        let data = try COLMAPModel.contents(of: url)
        guard let text = String(data: data, encoding: .utf8) else {
            throw DatasetImportError(url.path, "is not UTF-8 text (is it a binary model? name it .bin)")
        }
        return text
    }
}
