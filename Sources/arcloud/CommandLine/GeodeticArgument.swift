import CommandLineOptions
import Geodesy

/// A WGS 84 position given as `LAT,LON,H` (degrees, degrees, metres above the ellipsoid),
/// optionally followed by a compass heading in degrees (`LAT,LON,H,HEADING`).
enum GeodeticArgument {
    static func parse(_ text: String, option: String, heading: Bool) throws -> (position: GeodeticPosition, heading: Double?) {
        let values = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        let form = heading ? "LAT,LON,H,HEADING" : "LAT,LON,H"
        guard values.count == (heading ? 4 : 3), values.allSatisfy({ $0?.isFinite == true }) else {
            throw UsageError("option '--\(option)' takes \(form) (numbers: degrees, metres\(heading ? ", degrees" : "")), got '\(text)'")
        }
        let position = GeodeticPosition(latitude: values[0]!, longitude: values[1]!, height: values[2]!)
        if let p = position.problem { throw UsageError("option '--\(option)': \(p)") }
        return (position, heading ? values[3]! : nil)
    }
}
