import Geodesy
import Foundation
import VPSModel

/// What `SyntheticSessionGenerator` renders: scene, route, camera, effects and output.
public struct SyntheticSessionOptions: Sendable, Hashable {
    /// The camera route through the scene. On the `street` layout every route is a forward
    /// walk down the street instead (see `SyntheticSessionGenerator.streetLines`).
    public enum Route: String, Sendable, Hashable, CaseIterable {
        /// Covers every wall: two loops per room (near and far, opposite directions)
        /// looking at the walls, through all rooms in order, then back through the
        /// corridors to the first room (corridors and doorways seen both ways).
        case mapping
        /// A query walk: rooms in reverse order, one loop per room between the mapping
        /// distances, in the other turning direction.
        case walk
        /// A harder query: faster motion with hand shake and long exposure (blur), more
        /// noise, and a lighting change half-way (dimmer, light from elsewhere).
        case hard
        /// A short look around the first room only.
        case tour
    }

    public enum ImageFormat: String, Sendable, Hashable, CaseIterable { case jpg, png }

    /// Session name written into session.json.
    public var name: String
    /// Floor plan preset (`SceneLayout.presetNames`), or `street` (outdoors).
    public var layout: String = "gallery"
    /// Size of the `building` layout (other layouts ignore it).
    public var building = BuildingSize()
    /// Seed of the scene: layout jitter, textures, AR content.
    public var sceneSeed: UInt64 = 1
    /// Seed of the session: trajectory phases, sensor noise, odometry drift.
    public var sessionSeed: UInt64 = 1
    public var route: Route = .mapping
    public var frameCount: Int = 150
    public var width: Int = 640
    public var height: Int = 480
    /// Horizontal field of view; fx = fy from it, principal point at the image centre.
    public var horizontalFieldOfViewDegrees: Double = 62
    /// Scales noise, blur, vignetting and exposure changes: 0 = clean images, 1 = default.
    public var effectsStrength: Double = 1
    /// Scales the exposure over which each frame is blurred (on top of `effectsStrength`),
    /// and nothing else: 0 renders the same route, noise and light with sharp frames, which
    /// separates what motion blur costs from what the rest of a session does.
    public var motionBlur: Double = 1
    public var imageFormat: ImageFormat = .jpg
    public var jpegQuality: Int = 85
    /// Textures from this folder's images (sorted by name, used in turn) instead of procedural ones.
    public var textureFolder: URL? = nil
    public var ceilings: Bool = true
    /// Texture density relative to the default (walls 256 px/m); lower is faster and
    /// blurrier, for small test renders.
    public var textureScale: Double = 1
    /// Where the scene lies on the earth: the session's frames then carry GPS readings of
    /// their true positions through it, with `gpsNoise` (nil: no readings).
    public var georeference: Georeference? = nil
    /// The GPS readings' horizontal accuracy, metres: the radius holding them with probability 0.95
    /// around the truth, as a phone states it (W3C `accuracy`). Each reading is drawn with
    /// that noise (a standard deviation of noise / 2.45 per horizontal axis, twice that in
    /// height, as phones are worse vertically) and states it.
    public var gpsNoise: Double = 5

    public init(name: String) { self.name = name }

    /// Why these options cannot be rendered, or nil.
    public var problem: String? {
        if SceneLayout.presetNames.firstIndex(of: layout) == nil {
            return "unknown layout '\(layout)' (known: \(SceneLayout.presetNames.joined(separator: ", ")))"
        }
        if layout == "building", let p = building.problem { return p }
        if frameCount < 1 || frameCount > 100_000 { return "frame count must be 1...100000" }
        if width < 32 || height < 32 || width > 8192 || height > 8192 { return "image size must be 32...8192 on each side" }
        if !(horizontalFieldOfViewDegrees > 10 && horizontalFieldOfViewDegrees < 150) { return "field of view must be 10...150 degrees" }
        if !(effectsStrength >= 0 && effectsStrength <= 5) { return "effects strength must be 0...5" }
        if !(motionBlur >= 0 && motionBlur <= 5) { return "motion blur must be 0...5" }
        if !(textureScale >= 0.05 && textureScale <= 4) { return "texture scale must be 0.05...4" }
        if jpegQuality < 1 || jpegQuality > 100 { return "JPEG quality must be 1...100" }
        if !(gpsNoise >= 0 && gpsNoise <= 10_000) { return "GPS noise must be 0...10000 m" }
        if let p = georeference?.problem { return "georeference: \(p)" }
        return nil
    }
}
