import Foundation

/// Why `SimilarityFit.fit` refused to georeference a map.
public enum SimilarityFitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer than 3 readings with a valid position and accuracy (`GPSReading.problem`).
    case tooFewReadings(usable: Int)
    /// The readings the fit kept span `baseline` metres horizontally, fewer than the
    /// `needed` metres (`Options.minimumBaselineSigmas` times their median horizontal σ):
    /// within their noise of each other, they cannot fix the map's heading or scale.
    case shortBaseline(baseline: Double, needed: Double)
    /// With the map's up unknown, the kept readings lie within `offset` metres of a line,
    /// fewer than `needed`: the map's roll about that line is not determined.
    case collinear(offset: Double, needed: Double)
    /// No transform agrees with at least 3 readings within their stated accuracy.
    case noConsensus(inliers: Int)
    /// An option is out of range; the text says which.
    case invalidOptions(String)

    public var description: String {
        func m(_ x: Double) -> String { x < 10 ? String(format: "%.2f", x) : String(format: "%.0f", x) }
        switch self {
        case .tooFewReadings(let usable):
            return "georeferencing needs at least 3 GPS readings with a valid position and accuracy; \(usable) given"
        case .shortBaseline(let baseline, let needed):
            return "the GPS readings span \(m(baseline)) m, within their noise of each other: at least \(m(needed)) m "
                + "is needed to fix the map's heading and scale (record a longer path, or readings of better accuracy)"
        case .collinear(let offset, let needed):
            return "the GPS readings lie within \(m(offset)) m of a line (at least \(m(needed)) m off it is needed): "
                + "the map's roll about it is not determined; give the map's up direction"
        case .noConsensus(let inliers):
            return "no transform agrees with more than \(inliers) GPS readings within their stated accuracy (3 needed)"
        case .invalidOptions(let text):
            return "invalid georeferencing options: \(text)"
        }
    }
}
