import Geodesy
import Support
import VPSModel

/// How close the answers' GeoPoses lie to each frame's own GPS reading (a photo's EXIF, a
/// phone's fix in session.json): the horizontal distance, in metres, between a localized
/// frame's GeoPose position and the reading taken with it. No truth is needed, so it
/// measures real captures too; the readings' own error (metres, often 5–15 in a street)
/// is in every distance, so it bounds the GeoPoses' error from above rather than
/// measuring it: "GeoPoses within 20 m (median) of each photo's own GPS reading".
public struct GeoPoseGPSCheck: Sendable, Hashable, Codable {
    /// Localized frames with a GeoPose and a usable GPS reading.
    public var frames: Int
    public var medianHorizontalDistance: Double
    public var p95HorizontalDistance: Double
    public var maxHorizontalDistance: Double

    /// Nil when no frame of `outcomes` is localized with a GeoPose and has a reading in
    /// `readings` (frame id → reading) without a `GPSReading.problem`.
    public init?<Outcomes: Sequence<FrameOutcome>>(_ outcomes: Outcomes, readings: [String: GPSReading]) {
        var distances: [Double] = []
        for o in outcomes {
            guard o.result.isLocalized, let geo = o.result.geoPose, let gps = readings[o.frameId], gps.problem == nil else {
                continue
            }
            distances.append(gps.position.horizontalDistance(to: geo.position))
        }
        guard !distances.isEmpty else { return nil }
        let sorted = distances.sorted()
        frames = sorted.count
        medianHorizontalDistance = Statistics.percentile(sorted: sorted, 50) ?? 0
        p95HorizontalDistance = Statistics.percentile(sorted: sorted, 95) ?? 0
        maxHorizontalDistance = sorted.last ?? 0
    }

    /// The check of `outcomes` against the GPS readings of `session`'s frames; nil as above.
    public init?<Outcomes: Sequence<FrameOutcome>>(_ outcomes: Outcomes, session: RecordedSession) {
        var readings: [String: GPSReading] = [:]
        for f in session.frames { if let g = f.gps { readings[f.id] = g } }
        self.init(outcomes, readings: readings)
    }

    /// One line for `arcloud localize`'s summary.
    public var text: String {
        String(format: "GeoPose vs GPS    median %.2f m, p95 %.2f m, max %.2f m horizontally from each frame's own "
               + "GPS reading (%d frames)", medianHorizontalDistance, p95HorizontalDistance, maxHorizontalDistance, frames)
    }
}
