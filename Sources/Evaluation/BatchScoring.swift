import MapModel
import VPSModel

/// How `arcloud localize` scores a batch run of a session: thresholds in metres on a
/// metric map; on a map in unknown units, shares of the scale of the scene the session saw
/// (its ground-truth cameras; the map's own scale when they cannot give one). A run over
/// the HTTP service, whose map is not at hand, takes the units the service states.
public struct BatchScoring: Sendable {
    /// The summary's thresholds, the primary one first (`ErrorThreshold.forMap`).
    public var thresholds: [ErrorThreshold]

    /// Thresholds for a run of `session` against `map` (nil: a map known only by name).
    public init(session: RecordedSession, map: VPSMap?) {
        let units = map?.metadata.units ?? .metres
        let seen = units == .metres ? nil : SceneScale.of(session.frames.compactMap(\.pose))
        thresholds = Self.thresholds(units: units, seenScale: seen, map: map)
    }

    /// Thresholds for a run of `frames` against `map`, or against a map known only by name
    /// and `units` (metres when nil too). The scene scale, which only a map in unknown units
    /// needs, is found in two passes over the frames' ground truth.
    public init(frames: some SessionFrames, map: VPSMap?, units stated: MapUnits? = nil) throws {
        let units = map?.metadata.units ?? stated ?? .metres
        let seen = units == .metres ? nil
            : try SceneScale.of { body in try frames.forEach { _, f in if let p = f.pose { body(p) } } }
        thresholds = Self.thresholds(units: units, seenScale: seen, map: map)
    }

    /// The thresholds for `units`, on a scene of the scale the cameras saw (`seenScale`), else the map's own.
    private static func thresholds(units: MapUnits, seenScale: Double?, map: VPSMap?) -> [ErrorThreshold] {
        ErrorThreshold.forMap(units: units, sceneScale: seenScale ?? map.map { MapScale(map: $0).length } ?? 1)
    }

    /// Keeps inlier matches only for the frames the report can draw (judged by the primary
    /// threshold): memory stays flat in the number of frames.
    public var retention: WorstFrameRetention? { thresholds.first.map { WorstFrameRetention(primary: $0) } }
}
