extension RunComparison {
    /// Two runs scored in different units (metres against shares of the scene scale): not
    /// runs on the same map. The message names both run folders.
    public struct UnitsMismatch: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// A threshold given in the wrong units for run A's map (centimetres on a map in unknown
    /// units, a percentage on a metric one): a usage mistake, the message naming the option.
    public struct ThresholdUnitsMistake: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Run A's primary threshold from its summary (the metric (5 cm, 2°) when it has none),
    /// after checking that run B was scored in the same units. `a` and `b` name the runs.
    public static func primaryThreshold(_ a: String, _ summaryA: AccuracySummary?,
                                        _ b: String, _ summaryB: AccuracySummary?) throws(UnitsMismatch) -> ErrorThreshold {
        let primaryA = summaryA?.recall.first?.threshold ?? ErrorThreshold.standard[0]
        if let primaryB = summaryB?.recall.first?.threshold,
           (primaryA.sceneScaleShare == nil) != (primaryB.sceneScaleShare == nil) {
            func units(_ t: ErrorThreshold) -> String {
                t.sceneScaleShare == nil ? "metres" : "shares of the scene scale (map in unknown units)"
            }
            throw UnitsMismatch(description: "\(a) is scored in \(units(primaryA)), \(b) in \(units(primaryB)): "
                                    + "they are not runs on the same map")
        }
        return primaryA
    }

    /// The change threshold: `primary`, with the parts given replacing its own —
    /// `centimetres` (metric maps only), `percent` of the scene scale (maps in unknown units
    /// only), `degrees`.
    public static func changeThreshold(primary: ErrorThreshold, centimetres: Double?, percent: Double?,
                                       degrees: Double?) throws(ThresholdUnitsMistake) -> ErrorThreshold {
        let degrees = degrees ?? primary.degrees
        if let scale = primary.sceneScale {
            guard centimetres == nil else {
                throw ThresholdUnitsMistake(description: "--threshold-cm: run A's map is in unknown units; give "
                                                + "--threshold-percent (of the scene scale)")
            }
            let percent = percent ?? 100 * primary.sceneScaleShare!
            return ErrorThreshold(sceneScaleShare: percent / 100, of: scale, degrees: degrees)
        }
        guard percent == nil else {
            throw ThresholdUnitsMistake(description: "--threshold-percent: run A's map is metric; give --threshold-cm")
        }
        return ErrorThreshold(metres: (centimetres ?? primary.translation * 100) / 100, degrees: degrees)
    }
}
