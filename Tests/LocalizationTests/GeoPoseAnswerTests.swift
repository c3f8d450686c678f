import Foundation
import Geodesy
import Geometry
import Localization
import MapModel
import Storage
import TestSupport
import Testing
import VPSModel

/// Answers from a georeferenced map carry the pose on the earth and its accuracy.
@Suite struct GeoPoseAnswerTests {
    @Test func aGeoreferencedMapsAnswerCarriesItsGeoPose() throws {
        var map = try #require(PackageDirectory.galleryMap, "Maps/gallery.vpsmap must load")
        let origin = GeodeticPosition(latitude: 48.8584, longitude: 2.2945, height: 35)
        let georeference = try Georeference.manual(origin: origin, headingDegrees: 30)
        map.metadata.georeference = georeference
        let dir = PackageDirectory.root.appendingPathComponent("Datasets/gallery-query-walk")
        let session = try RecordedSession.load(from: dir)
        let frame = session.frames[10]
        let bytes = try [UInt8](Data(contentsOf: RecordedSession.imageURL(of: frame, in: dir)))
        let result = try Localizer(map: map).localize(encoded: bytes, intrinsics: session.camera, gravity: frame.gravity)
        let pose = try #require(result.pose, "\(result.reason ?? "")")
        let geoPose = try #require(result.geoPose)
        // The camera centre, through the georeference, and back to the map.
        let centre = georeference.position(ofMapPoint: pose.center)
        #expect(abs(geoPose.position.latitude - centre.latitude) < 1e-12)
        #expect(abs(geoPose.position.longitude - centre.longitude) < 1e-12)
        #expect(length(georeference.cameraToMap(from: geoPose).center - pose.center) < 1e-6)
        // Set by hand, the georeference adds no error of its own: the bounds are the pose's, in metres.
        let accuracy = try #require(result.accuracy), geoAccuracy = try #require(result.geoAccuracy)
        #expect(abs(geoAccuracy.position - accuracy.position) < 1e-12)
        #expect(abs(geoAccuracy.rotationDegrees - accuracy.rotationDegrees) < 1e-12)
        // The JSON of a result names them as the results file and the service write them.
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(json.contains("\"geoPose\":{") && json.contains("\"lat\":") && json.contains("\"geoAccuracy\":{"))
        // Without a georeference there is none.
        map.metadata.georeference = nil
        let plain = try Localizer(map: map).localize(encoded: bytes, intrinsics: session.camera, gravity: frame.gravity)
        #expect(plain.isLocalized && plain.geoPose == nil && plain.geoAccuracy == nil)
    }
}
