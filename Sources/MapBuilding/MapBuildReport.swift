import Foundation
import MapModel

/// What the builder did: per-stage wall-clock times and counts at each step.
public struct MapBuildReport: Sendable {
    /// Stage name and duration, in pipeline order.
    public var stages: [(name: String, duration: Duration)] = []
    public var keyframes = 0
    /// ORB features over all keyframes.
    public var features = 0
    /// Keyframe pairs matched.
    public var pairs = 0
    /// Feature matches that passed the ratio and epipolar tests.
    public var matches = 0
    /// Multi-view tracks formed from the matches.
    public var tracks = 0
    /// Matches refused because they would put two features of one keyframe in a track.
    public var trackConflicts = 0
    /// Tracks rejected, by reason.
    public var rejected: [String: Int] = [:]
    /// Observations removed from kept points as outliers.
    public var outlierObservations = 0
    /// The scene's depths as measured by the probe pairs (map units) and their median;
    /// nil when too few probe points were found.
    public var sceneDepth: (range: ClosedRange<Double>, median: Double)?
    /// Observations added by track extension, and the points that gained any.
    public var extendedObservations = 0
    public var extendedPoints = 0
    /// Descriptors kept for matching (one per distinct viewing direction of each point).
    public var viewDescriptors = 0
    /// Descriptors from simulated views, kept apart (`VPSMap.simulatedViewDescriptors`).
    public var simulatedViewDescriptors = 0
    public var points = 0
    public var observations = 0
    public var words = 0
    /// How the map was georeferenced from its frames' GPS readings, or why it was not
    /// (nil when no frame had one).
    public var georeference: String?

    public init() {}

    public var total: Duration { stages.reduce(.zero) { $0 + $1.duration } }

    /// The line `arcloud map build` ends with: the file, the map's name, keyframes, points,
    /// view descriptors, observations and mean track length, sections, objects, units, up,
    /// the file's size (MB) and the build's time (`seconds`, writing included).
    public func summary(of map: VPSMap, writtenTo path: String, fileBytes: Int, seconds: Double) -> String {
        let meanTrack = points == 0 ? 0 : Double(observations) / Double(points)
        return "built \(path): '\(map.metadata.name)', \(keyframes) keyframes, \(points) points "
            + "(\(viewDescriptors) view descriptors"
            + (simulatedViewDescriptors > 0 ? ", \(simulatedViewDescriptors) from simulated views), " : "), ")
            + "\(observations) observations (mean track \(String(format: "%.2f", meanTrack))), "
            + "\(map.scene.sections.count) sections, \(map.scene.objects.count) objects, "
            + "units \(map.metadata.units), up \(map.metadata.up), "
            + String(format: "%.1f MB, %.1f s", Double(fileBytes) / 1e6, seconds)
    }
}
