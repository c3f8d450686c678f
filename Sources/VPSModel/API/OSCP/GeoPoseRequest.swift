import Foundation
import Geodesy
import Geometry

/// The request of the OSCP GeoPose protocol (`GeoPoseReq`, github.com/OpenArCloud/
/// oscp-geopose-protocol): one camera reading, a JPEG in base64 with its camera parameters,
/// and optionally the phone's geolocation readings, which choose the map.
///
/// Decoding is as lenient as the protocol's clients are varied: members arcloud does not
/// use (privacy, sensors, Wi-Fi, Bluetooth, IMU readings, prior poses) are ignored, and
/// the timestamps and sensor ids it does not need may be missing. What it needs is checked
/// and named when wrong (`problem`).
public struct GeoPoseRequest: Sendable, Hashable, Decodable {
    /// The client's id for the request; the answer repeats it.
    public var id: String
    /// Milliseconds since the Unix epoch, as the client stamped it.
    public var timestamp: Double?
    public var type: String?
    public var cameraReadings: [CameraReading]
    public var geolocationReadings: [GeolocationReading]

    /// One image (`CameraReading`).
    public struct CameraReading: Sendable, Hashable, Decodable {
        public var sequenceNumber: Int?
        /// `JPG`, `JPEG` (any case) or `image/jpeg`; arcloud also takes `PNG`.
        public var imageFormat: String
        /// Width and height in pixels.
        public var size: [Int]
        /// The encoded image, base64.
        public var imageBytes: String
        public var params: CameraParameters?
    }

    /// Camera parameters as COLMAP names its models (`CameraParam`).
    public struct CameraParameters: Sendable, Hashable, Decodable {
        public var model: String?
        public var modelParams: [Double]?
    }

    /// A W3C geolocation reading (`GeolocationReading`): degrees, metres above the WGS 84
    /// ellipsoid, accuracies (probability 0.95) in metres.
    public struct GeolocationReading: Sendable, Hashable, Decodable {
        public var latitude: Double
        public var longitude: Double
        public var altitude: Double?
        public var accuracy: Double?
        public var altitudeAccuracy: Double?

        /// The reading as the geodesy module takes it; nil when its position is impossible.
        /// A reading without an accuracy is taken as a phone's in a street: 30 m.
        public var gps: GPSReading? {
            let reading = GPSReading(position: GeodeticPosition(latitude: latitude, longitude: longitude,
                                                                height: altitude ?? 0),
                                     accuracy: accuracy ?? 30, altitudeAccuracy: altitudeAccuracy)
            return reading.problem == nil ? reading : nil
        }
    }

    private enum CodingKeys: String, CodingKey { case id, timestamp, type, sensorReadings }
    private enum ReadingKeys: String, CodingKey { case cameraReadings, geolocationReadings }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        timestamp = try c.decodeIfPresent(Double.self, forKey: .timestamp)
        type = try c.decodeIfPresent(String.self, forKey: .type)
        let r = try c.nestedContainer(keyedBy: ReadingKeys.self, forKey: .sensorReadings)
        cameraReadings = try r.decodeIfPresent([CameraReading].self, forKey: .cameraReadings) ?? []
        geolocationReadings = try r.decodeIfPresent([GeolocationReading].self, forKey: .geolocationReadings) ?? []
    }

    /// The camera's intrinsics from the first camera reading's size and parameters
    /// (PINHOLE fx, fy, cx, cy; SIMPLE_PINHOLE f, cx, cy; SIMPLE_RADIAL f, cx, cy, k;
    /// RADIAL f, cx, cy, k1, k2; OPENCV fx, fy, cx, cy, k1, k2, p1, p2), or why not.
    public func intrinsics() -> Result<CameraIntrinsics, RequestProblem> {
        guard let camera = cameraReadings.first else { return .failure("sensorReadings.cameraReadings holds no reading") }
        guard camera.size.count == 2, camera.size.allSatisfy({ $0 > 0 && $0 <= 100_000 }) else {
            return .failure("cameraReadings[0].size must be [width, height] in pixels")
        }
        guard let p = camera.params, let model = p.model?.uppercased(), let v = p.modelParams else {
            return .failure("cameraReadings[0].params must give the camera model and modelParams: a pose needs the focal length")
        }
        guard v.allSatisfy(\.isFinite) else { return .failure("cameraReadings[0].params.modelParams must be finite numbers") }
        let (w, h) = (camera.size[0], camera.size[1])
        let counts = ["PINHOLE": 4, "SIMPLE_PINHOLE": 3, "SIMPLE_RADIAL": 4, "RADIAL": 5, "OPENCV": 8]
        guard let n = counts[model] else {
            return .failure("camera model '\(model.prefix(40))' is not one of PINHOLE, SIMPLE_PINHOLE, SIMPLE_RADIAL, RADIAL, OPENCV")
        }
        guard v.count == n else { return .failure("a \(model) camera has \(n) modelParams, got \(v.count)") }
        let intrinsics: CameraIntrinsics
        switch model {
        case "PINHOLE": intrinsics = CameraIntrinsics(width: w, height: h, fx: v[0], fy: v[1], cx: v[2], cy: v[3])
        case "SIMPLE_PINHOLE": intrinsics = CameraIntrinsics(width: w, height: h, fx: v[0], fy: v[0], cx: v[1], cy: v[2])
        case "SIMPLE_RADIAL":
            intrinsics = CameraIntrinsics(width: w, height: h, fx: v[0], fy: v[0], cx: v[1], cy: v[2], distortion: [v[3], 0, 0, 0])
        case "RADIAL":
            intrinsics = CameraIntrinsics(width: w, height: h, fx: v[0], fy: v[0], cx: v[1], cy: v[2],
                                          distortion: [v[3], v[4], 0, 0])
        default:
            intrinsics = CameraIntrinsics(width: w, height: h, fx: v[0], fy: v[1], cx: v[2], cy: v[3],
                                          distortion: [v[4], v[5], v[6], v[7]])
        }
        if let why = intrinsics.problem { return .failure("impossible camera parameters: \(why)") }
        return .success(intrinsics)
    }

    /// The first camera reading's image bytes, or why not: base64 that decodes, in a format
    /// the service reads.
    public func image() -> Result<[UInt8], RequestProblem> {
        guard let camera = cameraReadings.first else { return .failure("sensorReadings.cameraReadings holds no reading") }
        let format = camera.imageFormat.lowercased()
        guard ["jpg", "jpeg", "image/jpeg", "png", "image/png"].contains(format) else {
            return .failure("imageFormat '\(camera.imageFormat.prefix(40))' is not JPG or PNG: send the camera image encoded")
        }
        guard let data = Data(base64Encoded: camera.imageBytes, options: .ignoreUnknownCharacters), !data.isEmpty else {
            return .failure("cameraReadings[0].imageBytes is not base64 of an image")
        }
        return .success([UInt8](data))
    }

    /// The geolocation reading with the best accuracy, if any is usable.
    public var bestGeolocation: GPSReading? {
        geolocationReadings.compactMap(\.gps).min { $0.accuracy < $1.accuracy }
    }
}

/// What is wrong with a protocol request, in words for the 400 answer.
public struct RequestProblem: Error, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    public let description: String
    public init(_ description: String) { self.description = description }
    public init(stringLiteral value: String) { description = value }
}
