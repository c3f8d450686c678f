import Foundation
import Geodesy
import VPSModel

/// OpenSfM's `ground_control_points.json`: surveyed landmarks and where they appear in the
/// images (OpenSfM's documentation, "Ground Control Points", JSON file format):
///
///     {"points": [
///       {"id": "gcp-1",
///        "position": {"latitude": 52.51913, "longitude": 13.40074, "altitude": 12.08},
///        "observations": [{"shot_id": "01.jpg", "projection": [0.1174, -0.0271]},
///                         {"shot_id": "02.jpg", "projection": [0.1854, -0.1333]}]}]}
///
/// - `position`: WGS 84 degrees; `altitude` metres, optional (the point then places the
///   map horizontally only). arcloud takes it as height above the ellipsoid, as its GPS
///   readings are; a survey's height above sea level only shifts the map vertically by the
///   geoid there. A point without `position` is read (OpenSfM uses such points to tie
///   images together) but cannot place a map.
/// - `projection`: OpenSfM's normalized image coordinates, the image centre at (0, 0), x
///   right and y down, divided by the larger of the image's width and height:
///   `pixel = projection · max(w, h) + (w, h) / 2 − ½` (its `denormalized_image_coordinates`).
///
/// Read strictly: every error names the file and the point (`points[3] 'gcp-4'`). Members
/// arcloud does not use are ignored, as OpenSfM ignores them.
public struct GroundControlPoints: Sendable, Hashable {
    /// One observation as written.
    public struct Observation: Sendable, Hashable {
        public var shotID: String
        /// Normalized image coordinates (see the type's documentation).
        public var projection: SIMD2<Double>
    }

    /// One point as written.
    public struct Point: Sendable, Hashable {
        public var id: String
        /// nil when the file gives no `position`; `height` 0 when it gives no `altitude`.
        public var position: GeodeticPosition?
        public var hasAltitude: Bool
        public var observations: [Observation]
    }

    public var points: [Point]
    /// The file read, for messages.
    public var file: String

    /// Reads and checks a `ground_control_points.json`.
    ///
    /// - Throws: `DatasetImportError` naming the file (and the point): not a regular file,
    ///   not JSON, a member missing or of the wrong type, a coordinate out of range, two
    ///   points with one id, two observations of a point in one image, no points at all.
    public static func load(from url: URL) throws -> GroundControlPoints {
        let data: Data
        do { data = try RegularFile.read(url) } catch let e as RegularFileError {
            throw DatasetImportError(e.path, e.problem + " (expected an OpenSfM ground_control_points.json)")
        }
        return try GroundControlPoints(json: data, file: url.path)
    }

    /// Parses the file's bytes; `file` names it in errors.
    public init(json data: Data, file: String) throws {
        self.file = file
        let root: JSONValue
        do { root = try JSONDecoder().decode(JSONValue.self, from: data) } catch {
            throw DatasetImportError(file, "is not JSON (\(Self.reason(error)))")
        }
        guard case .object(let top) = root else { throw DatasetImportError(file, "expected a JSON object at the top level") }
        guard case .array(let list)? = top["points"] else {
            throw DatasetImportError(file, "points: expected a list of ground control points")
        }
        guard !list.isEmpty else { throw DatasetImportError(file, "points: the list is empty") }
        var points: [Point] = [], ids = Set<String>()
        for (i, item) in list.enumerated() {
            let point = try Self.point(item, at: "points[\(i)]", file: file)
            guard ids.insert(point.id).inserted else {
                throw DatasetImportError(file, "points[\(i)]: id '\(point.id)' is given to an earlier point as well")
            }
            points.append(point)
        }
        self.points = points
    }

    private static func point(_ item: JSONValue, at index: String, file: String) throws -> Point {
        guard case .object(let p) = item else { throw DatasetImportError(file, "\(index): expected an object") }
        guard case .string(let id)? = p["id"], !id.isEmpty else {
            throw DatasetImportError(file, "\(index).id: expected the point's name, a non-empty string")
        }
        let at = "\(index) '\(id)'"
        func fail(_ message: String) -> DatasetImportError { DatasetImportError(file, "\(at): \(message)") }
        var position: GeodeticPosition?
        var hasAltitude = false
        if let value = p["position"] {
            guard case .object(let lla) = value else { throw fail("position: expected an object with latitude, longitude, altitude") }
            func number(_ key: String) throws -> Double? {
                guard let v = lla[key] else { return nil }
                guard case .number(let x) = v, x.isFinite else { throw fail("position.\(key): expected a number") }
                return x
            }
            guard let latitude = try number("latitude"), let longitude = try number("longitude") else {
                throw fail("position: latitude and longitude are required (WGS 84 degrees)")
            }
            let altitude = try number("altitude")
            let surveyed = GeodeticPosition(latitude: latitude, longitude: longitude, height: altitude ?? 0)
            if let problem = surveyed.problem { throw fail("position: \(problem)") }
            position = surveyed
            hasAltitude = altitude != nil
        }
        guard case .array(let list)? = p["observations"] else {
            throw fail("observations: expected a list of {shot_id, projection}")
        }
        var observations: [Observation] = [], shots = Set<String>()
        for (j, item) in list.enumerated() {
            let o = "observations[\(j)]"
            guard case .object(let ob) = item else { throw fail("\(o): expected an object") }
            guard case .string(let shot)? = ob["shot_id"], !shot.isEmpty else {
                throw fail("\(o).shot_id: expected the image's name, a non-empty string")
            }
            guard case .array(let xy)? = ob["projection"], xy.count == 2,
                  case .number(let x) = xy[0], case .number(let y) = xy[1], x.isFinite, y.isFinite else {
                throw fail("\(o).projection: expected [x, y], two numbers (normalized image coordinates)")
            }
            // Normalized coordinates lie within ±0.5 of the centre along the image's longer side.
            guard abs(x) <= 0.5, abs(y) <= 0.5 else {
                throw fail("\(o).projection [\(x), \(y)] lies outside every image: normalized image coordinates "
                           + "are within ±0.5 (pixels divided by the larger image side, from the centre)")
            }
            guard shots.insert(shot).inserted else { throw fail("\(o): a second observation in image '\(shot)'") }
            observations.append(Observation(shotID: shot, projection: SIMD2(x, y)))
        }
        return Point(id: id, position: position, hasAltitude: hasAltitude, observations: observations)
    }

    /// The points for a build over `frames`: each observation's image found among the
    /// frames (by the frame's name, else by its image file's name when one frame has it)
    /// and its projection turned into that frame's pixels. Observations naming no frame are
    /// listed in `ControlPoint.unmatchedImages`, for the build to report.
    ///
    /// - Throws: `DatasetImportError` for a projection outside its frame's image.
    public func controlPoints(for frames: [MapBuildFrame]) throws -> [ControlPoint] {
        var byName: [String: MapBuildFrame] = [:], byFile: [String: [MapBuildFrame]] = [:]
        for f in frames {
            byName[f.name] = byName[f.name] ?? f
            byFile[f.imageURL.lastPathComponent, default: []].append(f)
        }
        return try points.enumerated().map { i, p in
            var observations: [ControlPoint.Observation] = [], unmatched: [String] = []
            for o in p.observations {
                let candidates = byFile[o.shotID] ?? []
                guard let frame = byName[o.shotID] ?? (candidates.count == 1 ? candidates[0] : nil) else {
                    unmatched.append(o.shotID)
                    continue
                }
                let k = frame.intrinsics
                let w = Double(k.width), h = Double(k.height)
                let pixel = o.projection * max(w, h) + SIMD2(w, h) / 2 - 0.5
                guard pixel.x >= -0.5, pixel.y >= -0.5, pixel.x <= w - 0.5, pixel.y <= h - 0.5 else {
                    throw DatasetImportError(file, "points[\(i)] '\(p.id)': projection [\(o.projection.x), "
                                             + "\(o.projection.y)] lies outside image '\(o.shotID)' (\(k.width)x\(k.height))")
                }
                observations.append(ControlPoint.Observation(frame: frame.name, pixel: pixel))
            }
            return ControlPoint(id: p.id, position: p.position, hasAltitude: p.hasAltitude,
                                observations: observations, unmatchedImages: unmatched)
        }
    }

    private static func reason(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let c) = error {
            return (c.underlyingError as NSError?)?.localizedDescription ?? c.debugDescription
        }
        return "\(error)"
    }
}

/// Any JSON value, so that the reader can say which member is wrong and how.
private enum JSONValue: Decodable, Hashable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let x = try? c.decode(Double.self) { self = .number(x) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }
}
