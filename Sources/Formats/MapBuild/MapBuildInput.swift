import Foundation
import MapModel
import VPSModel

/// A map build's input resolved from its source (`MapBuildSource`): the posed frames, what
/// the map is called and which units and up it has unless told, and the scene content
/// that goes into it.
public struct MapBuildInput: Sendable {
    /// The posed frames, in the source's order.
    public var frames: [MapBuildFrame]
    /// The map's name unless one is given: the scene's, else the session's, the model
    /// folder's or the capture folder's.
    public var defaultName: String
    /// What the map records as its source (`MapMetadata.portableSource`).
    public var source: String
    /// Metres for a session (the generator's, and recordings are validated so); unknown for
    /// a COLMAP model or a nerfstudio capture, whose scale is arbitrary.
    public var defaultUnits: MapUnits
    /// +y for a session (gravity-aligned); unknown for a COLMAP model or a nerfstudio capture.
    public var defaultUp: MapUpDirection
    /// Frames of a nerfstudio capture left out because their image is missing (`frames[i] 'path'`).
    public var missing: [String] = []
    /// A session folder's scene.json, when it has one; nil for the other sources.
    public var sessionScene: URL?
    /// The scene content (sections, AR objects, navigation) after `loadScene`.
    public var scene: SceneContent?
    /// Ground control points after `loadControlPoints`, their observations matched to `frames`.
    public var controlPoints: [ControlPoint]?

    /// A failure to read the input, the message naming the file or folder.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Reads the source's poses and intrinsics (images are not read). Errors name the file.
    public init(_ source: MapBuildSource) throws {
        switch source {
        case .nerfstudio(let path, let skipMissing):
            let transforms = try NerfstudioTransforms.load(from: URL(fileURLWithPath: path), skipMissing: skipMissing)
            frames = MapBuildFrame.frames(of: transforms)
            missing = transforms.missing
            defaultName = transforms.file.deletingLastPathComponent().lastPathComponent
            self.source = MapMetadata.portableSource("nerfstudio", path: path)
            // A capture's scale and frame are its app's own: unknown unless told.
            (defaultUnits, defaultUp) = (.unknown, .unknown)
        case .session(let dir):
            let url = URL(fileURLWithPath: dir, isDirectory: true)
            let session: RecordedSession
            do { session = try RecordedSession.load(from: url) } catch { throw Failure(description: "\(dir): \(error)") }
            do { frames = try MapBuildFrame.frames(of: session, in: url) } catch { throw Failure(description: "\(dir): \(error)") }
            if frames.isEmpty { throw Failure(description: "\(dir): no frame has a ground-truth pose; a map needs posed frames") }
            let scene = url.appendingPathComponent(SceneDescription.fileName)
            sessionScene = FileManager.default.fileExists(atPath: scene.path) ? scene : nil
            defaultName = session.name
            self.source = MapMetadata.portableSource("session", path: dir)
            // Sessions are gravity-aligned in metres (the generator; recordings are validated so).
            (defaultUnits, defaultUp) = (.metres, .plusY)
        case .colmap(let model, let images):
            let modelURL = URL(fileURLWithPath: model, isDirectory: true)
            let imageURL = images.map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? COLMAPModel.defaultImageFolder(for: modelURL)
            frames = try MapBuildFrame.frames(of: try COLMAPModel.load(from: modelURL), images: imageURL)
            defaultName = modelURL.lastPathComponent
            self.source = MapMetadata.portableSource("colmap", path: model)
            // A reconstruction's scale and frame are arbitrary.
            (defaultUnits, defaultUp) = (.unknown, .unknown)
        }
    }

    /// Reads the source, then the scene content (`scene`, else a session's scene.json
    /// unless `noScene`) and the ground control points (`controlPoints`, a path to
    /// OpenSfM's `ground_control_points.json`), as `map build`'s options name them.
    public init(_ source: MapBuildSource, scene: String?, noScene: Bool, controlPoints: String?) throws {
        try self.init(source)
        if let scene = scene.map({ URL(fileURLWithPath: $0) }) ?? (noScene ? nil : sessionScene) { try loadScene(from: scene) }
        if let controlPoints { try loadControlPoints(from: controlPoints) }
    }

    /// Reads scene content JSON (a scene description or exported scene content) into
    /// `scene`; a scene description's name becomes `defaultName`.
    public mutating func loadScene(from url: URL) throws {
        let bytes = try RegularFile.read(url)
        do {
            scene = try JSONDecoder().decode(SceneContent.self, from: bytes)
            if let name = try? JSONDecoder().decode(SceneDescription.self, from: bytes).name { defaultName = name }
        } catch let e as DecodingError {
            throw Failure(description: "not scene JSON: \(DatasetProblem(e, fileName: url.path))")
        }
    }

    /// Reads OpenSfM's `ground_control_points.json` at `path` into `controlPoints`
    /// (`GroundControlPoints`); errors name the file and the point.
    public mutating func loadControlPoints(from path: String) throws {
        controlPoints = try GroundControlPoints.load(from: URL(fileURLWithPath: path)).controlPoints(for: frames)
    }

    /// The map's metadata: the given name, units and up, else the defaults.
    public func metadata(name: String?, units: MapUnits?, up: MapUpDirection?) -> MapMetadata {
        MapMetadata(name: name ?? defaultName, source: source, units: units ?? defaultUnits, up: up ?? defaultUp)
    }
}
