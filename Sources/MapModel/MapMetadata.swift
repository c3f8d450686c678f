import Foundation
import Geodesy
import Geometry
import Vision

/// Facts about a map as a whole: what it is called, when and from what it was built,
/// with which camera and builder settings.
public struct MapMetadata: Sendable, Hashable, Codable {
    /// Map name, e.g. the scene name `gallery`.
    public var name: String
    public var created: Date
    /// The camera of the mapping session (keyframes carry their own intrinsics too).
    public var camera: CameraIntrinsics?
    /// Where the map came from, e.g. `session Datasets/gallery-mapping` or `colmap <dir>`
    /// (see `portableSource`).
    public var source: String
    /// Builder settings and figures, for the record (`map inspect` prints them).
    public var builder: [String: String]
    /// The unit of the map's coordinates: metres, or unknown (a COLMAP model's arbitrary scale).
    public var units: MapUnits
    /// Which way is up in the map's frame, or unknown.
    public var up: MapUpDirection
    /// Where the map lies on the earth, when known: answers from it then carry a GeoPose.
    public var georeference: Georeference?
    /// The features its points are described with; its queries are extracted with the same.
    public var featureType: FeatureType

    /// Units and up default to metres and +y, what arcloud's own sessions give (and what
    /// every map was assumed to be before maps recorded them); a map built from a COLMAP
    /// model sets both to unknown unless told.
    public init(name: String, created: Date = Date(), camera: CameraIntrinsics? = nil, source: String = "",
                builder: [String: String] = [:], units: MapUnits = .metres, up: MapUpDirection = .plusY,
                georeference: Georeference? = nil, featureType: FeatureType = .orb) {
        self.name = name; self.created = created; self.camera = camera
        self.source = source; self.builder = builder
        self.units = units; self.up = up; self.georeference = georeference
        self.featureType = featureType
    }

    /// `kind` and the input at `path` as a map may record them: a map file is shared, so
    /// it must not carry the builder's local paths (user names, home folders). A path
    /// inside `workingDirectory` is recorded relative to it (`Datasets/gallery-mapping`,
    /// as in the repository), any other by its last component (the session's folder name).
    public static func portableSource(_ kind: String, path: String,
                                      workingDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        let base = URL(fileURLWithPath: workingDirectory, isDirectory: true).standardizedFileURL.pathComponents
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: workingDirectory, isDirectory: true))
            .standardizedFileURL
        let parts = url.pathComponents
        let inside = parts.count > base.count && Array(parts.prefix(base.count)) == base
        let name = inside ? parts.dropFirst(base.count).joined(separator: "/") : url.lastPathComponent
        return "\(kind) \(name)"
    }
}
