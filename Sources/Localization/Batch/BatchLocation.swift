import Geodesy
import VPSModel

extension BatchLocalizer {
    /// The GPS reading a batch hands the localizer with each frame: in a georeferenced map
    /// it narrows the search to the keyframes around it (`LocationPrior`), and never bends
    /// the pose.
    public enum BatchLocation: Sendable, Hashable {
        /// The same reading for every frame (`arcloud localize --near LAT,LON,ACCURACY`).
        case reading(GPSReading)
        /// Each frame's own reading (`RecordedSession.Frame.gps`), when it has one
        /// (`arcloud localize --near gps`).
        case eachFrameGPS

        /// The reading for `frame`.
        func reading(for frame: RecordedSession.Frame) -> GPSReading? {
            switch self {
            case .reading(let r): r
            case .eachFrameGPS: frame.gps
            }
        }

        /// Why a text is not a batch location.
        public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
            public let description: String
        }

        /// `gps` (each frame's own reading) or `LAT,LON,ACCURACY` (degrees, degrees, and
        /// metres at probability 0.95, as the W3C geolocation API states accuracy).
        public static func parse(_ text: String) throws(ParseError) -> BatchLocation {
            if text == "gps" { return .eachFrameGPS }
            let v = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard v.count == 3, let lat = v[0], let lon = v[1], let accuracy = v[2] else {
                throw ParseError(description: "'\(text)' is neither 'gps' nor LAT,LON,ACCURACY (degrees, degrees, metres)")
            }
            let reading = GPSReading(position: GeodeticPosition(latitude: lat, longitude: lon, height: 0), accuracy: accuracy)
            if let why = reading.problem { throw ParseError(description: "'\(text)': \(why)") }
            return .reading(reading)
        }
    }
}
