import Foundation

extension GeodeticPosition {
    /// Why a text is not a position (`LAT,LON,H`) or a position and a heading.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
    }

    /// Parses `LAT,LON,H` (degrees, degrees, metres above the ellipsoid) or, with
    /// `heading`, `LAT,LON,H,HEADING` (the last a compass bearing in degrees).
    public static func parse(_ text: String, heading: Bool) throws(ParseError) -> (position: GeodeticPosition, heading: Double?) {
        let values = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        let form = heading ? "LAT,LON,H,HEADING" : "LAT,LON,H"
        guard values.count == (heading ? 4 : 3), values.allSatisfy({ $0?.isFinite == true }) else {
            throw ParseError(description: "'\(text)' is not \(form) (numbers: degrees, degrees, metres\(heading ? ", degrees" : ""))")
        }
        let position = GeodeticPosition(latitude: values[0]!, longitude: values[1]!, height: values[2]!)
        if let p = position.problem { throw ParseError(description: "'\(text)': \(p)") }
        return (position, heading ? values[3]! : nil)
    }
}
