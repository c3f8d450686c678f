import Foundation

extension Georeference: CustomStringConvertible {
    /// One line: how it was found, the origin, the scale and the fit's residuals, as `map
    /// inspect` and `map georef` print it.
    public var description: String {
        var line = String(format: "%@: origin %.7f, %.7f, %.2f m; scale %.6g m per unit", source.rawValue,
                          origin.latitude, origin.longitude, origin.height, scale)
        if let r = residuals {
            line += String(format: "; %d of %d readings kept, residual RMS %.2f m horizontal, %.2f m vertical",
                           r.inliers, r.readings, r.horizontalRMS, r.verticalRMS)
        }
        return line
    }
}
