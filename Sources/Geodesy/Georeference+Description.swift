import Foundation

extension Georeference: CustomStringConvertible {
    /// One line: how it was found, the origin, the scale and the fit's residuals, as `map
    /// inspect` and `map georef` print it; fitted to ground control points, `from 5 ground
    /// control points` (or `4 of 5` when one disagreed).
    public var description: String {
        var line = String(format: "%@: origin %.7f, %.7f, %.2f m; scale %.6g m per unit", source.rawValue,
                          origin.latitude, origin.longitude, origin.height, scale)
        if let r = residuals, source == .controlPoints {
            // Surveyed points fit to centimetres: millimetres show how well.
            let used = r.inliers == r.readings ? "\(r.readings)" : "\(r.inliers) of \(r.readings)"
            line += String(format: "; from %@ ground control points, residual RMS %.3f m horizontal, %.3f m vertical",
                           used, r.horizontalRMS, r.verticalRMS)
        } else if let r = residuals {
            line += String(format: "; %d of %d readings kept, residual RMS %.2f m horizontal, %.2f m vertical",
                           r.inliers, r.readings, r.horizontalRMS, r.verticalRMS)
        }
        return line
    }
}
