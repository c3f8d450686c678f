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
        self.init(pairs: { body in for o in outcomes { body(o, readings[o.frameId]) } })
    }

    /// The check of `outcomes` against the GPS readings of `session`'s frames; nil as above.
    public init?<Outcomes: Sequence<FrameOutcome>>(_ outcomes: Outcomes, session: RecordedSession) {
        var readings: [String: GPSReading] = [:]
        for f in session.frames { if let g = f.gps { readings[f.id] = g } }
        self.init(outcomes, readings: readings)
    }

    /// The check of a run's `outcomes` against the GPS reading of the frame each is of
    /// (`frames`, read alongside them: a session read as a stream); nil as above. The frames
    /// are read only when some outcome has a GeoPose.
    public init?(_ outcomes: FrameOutcomes, frames: some SessionFrames) throws {
        guard outcomes.contains(where: { $0.result.isLocalized && $0.result.geoPose != nil }) else { return nil }
        try self.init(pairs: { body in
            try frames.forEach { i, frame in if i < outcomes.count { body(outcomes[i], frame.gps) } }
        })
    }

    /// The check of the outcomes and readings `pairs` hands out, in one pass; the distances
    /// go to a `SpilledSort` for their exact percentiles.
    init?(pairs: ((FrameOutcome, GPSReading?) -> Void) throws -> Void) rethrows {
        let distances = SpilledSort()
        var largest = -Double.infinity
        try pairs { o, reading in
            guard o.result.isLocalized, let geo = o.result.geoPose, let gps = reading, gps.problem == nil else { return }
            let d = gps.position.horizontalDistance(to: geo.position)
            distances.append(d)
            largest = max(largest, d)
        }
        guard let p = distances.percentiles([50, 95])?.values else { return nil }
        frames = distances.count
        medianHorizontalDistance = p[0]
        p95HorizontalDistance = p[1]
        maxHorizontalDistance = largest
    }

    /// One line for `arcloud localize`'s summary.
    public var text: String {
        String(format: "GeoPose vs GPS    median %.2f m, p95 %.2f m, max %.2f m horizontally from each frame's own "
               + "GPS reading (%d frames)", medianHorizontalDistance, p95HorizontalDistance, maxHorizontalDistance, frames)
    }
}
