import Foundation
import Geodesy
import Geometry
import Localization
import MapBuilding
import MapModel
import TestSupport
import Testing
import VPSModel

/// A location prior narrows the search to the keyframes around it and never bends the
/// pose, on the shipped gallery: twinned 100 m away (two identical places, which only a
/// prior tells apart), and beside another capture.
@Suite(.serialized) struct LocationPriorTests {
    static let offset = SIMD3<Double>(100, 0, 0)

    func gallery() throws -> VPSMap { try #require(PackageDirectory.galleryMap, "Maps/gallery.vpsmap must load") }

    func frames(_ indices: [Int]) throws -> [(bytes: [UInt8], truth: Pose, camera: CameraIntrinsics)] {
        let dir = PackageDirectory.root.appendingPathComponent("Datasets/gallery-query-walk")
        let s = try RecordedSession.load(from: dir)
        return try indices.map { i in
            let f = s.frames[i]
            return ([UInt8](try Data(contentsOf: RecordedSession.imageURL(of: f, in: dir))), try #require(f.pose), s.camera)
        }
    }

    @Test func aPriorPicksItsCopyOfTwoIdenticalPlaces() throws {
        let g = try gallery()
        let twin = try MapMerger().merge([.init(map: g, placement: .identity, name: "a"),
                                          .init(map: g, placement: Pose(rotation: .identity, translation: Self.offset), name: "b")],
                                         name: "twin")
        let localizer = try Localizer(map: twin)
        for f in try frames([5, 40]) {
            for shift in [SIMD3<Double>(0, 0, 0), Self.offset] {
                // A prior 3 m off the camera, 10 m wide: only one copy's keyframes are within it.
                let near = LocationPrior(center: f.truth.center + shift + SIMD3(3, 0, 0), radius: 10)
                let r = try localizer.localize(encoded: f.bytes, intrinsics: f.camera, near: near)
                #expect(r.locationPrior == .narrowed, "\(r.reason ?? "")")
                guard let pose = r.pose else { continue }
                #expect(length(pose.center - (f.truth.center + shift)) < 0.05)
            }
        }
    }

    @Test func aPriorTheImageContradictsOrOutsideTheMapLeavesThePoseToTheImage() throws {
        let g = try gallery()
        let other = try makeSyntheticMap(pointCount: 2000, keyframeCount: 30, seed: 7)
        let venue = try MapMerger().merge([.init(map: g, placement: .identity, name: "gallery"),
                                           .init(map: other, placement: Pose(rotation: .identity, translation: Self.offset),
                                                 name: "other")], name: "venue")
        let localizer = try Localizer(map: venue)
        for f in try frames([5, 40]) {
            let free = try localizer.localize(encoded: f.bytes, intrinsics: f.camera)
            guard let freePose = free.pose else { Issue.record("not placed without a prior: \(free.reason ?? "")"); continue }
            #expect(free.locationPrior == nil)
            // At the other capture: its keyframes do not place the frame, the whole map does.
            let wrong = LocationPrior(center: other.keyframes[0].pose.center + Self.offset, radius: 10)
            // 500 m away: no keyframe lies within it.
            let far = LocationPrior(center: f.truth.center + SIMD3(500, 0, 0), radius: 60)
            for (near, use) in [(wrong, LocationPriorUse.notConfirmed), (far, .outsideMap)] {
                let r = try localizer.localize(encoded: f.bytes, intrinsics: f.camera, near: near)
                #expect(r.locationPrior == use)
                guard let pose = r.pose else { Issue.record("not placed with the prior: \(r.reason ?? "")"); continue }
                #expect(length(pose.center - freePose.center) < 0.01)
                #expect(length(pose.center - f.truth.center) < 0.05)
            }
        }
    }

    @Test func aGPSReadingBecomesAHorizontalPriorInTheMap() throws {
        let g = Georeference(origin: GeodeticPosition(latitude: 48.2, longitude: 16.37, height: 200), scale: 2,
                             rotation: Quaternion(axis: SIMD3(1, 0, 0), angle: .pi / 2), translation: SIMD3(10, 20, 0),
                             source: .manual)
        let point = SIMD3<Double>(3, 0.5, -7)
        let reading = GPSReading(position: g.position(ofMapPoint: point), accuracy: 8)
        let prior = LocationPrior(reading: reading, georeference: g, reachMetres: 50)
        #expect(length(prior.center - point) < 1e-6)
        #expect(abs(prior.radius - 29) < 1e-9)           // (8 + 50) m at 2 m per map unit
        // The map's up is its +y here (x-rotation by 90° takes +y to +z, ENU's up).
        let up = try #require(prior.up)
        #expect(length(up - SIMD3(0, 1, 0)) < 1e-9)
        #expect(abs(prior.distance(to: point + SIMD3(0, 40, 0))) < 1e-9)   // height is not counted
        #expect(abs(prior.distance(to: point + SIMD3(3, 0, 4)) - 5) < 1e-9)
    }

    @Test func theRequestsNearFieldIsCheckedAndRoundTrips() throws {
        let json = #"{"mapId":"m","intrinsics":{"width":640,"height":480,"fx":500,"fy":500,"cx":320,"cy":240},"near":{"position":[1,2,3],"radius":4}}"#
        let r = try JSONDecoder().decode(LocalizeRequest.self, from: Data(json.utf8))
        #expect(r.near == LocationPrior(center: SIMD3(1, 2, 3), radius: 4))
        #expect(try JSONDecoder().decode(LocalizeRequest.self, from: JSONEncoder().encode(r)) == r)
        for bad in [#""near":{"position":[1,2],"radius":4}"#, #""near":{"position":[1,2,3],"radius":-1}"#,
                    #""near":{"position":[1,2,3]}"#] {
            let text = json.replacingOccurrences(of: #""near":{"position":[1,2,3],"radius":4}"#, with: bad)
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(LocalizeRequest.self, from: Data(text.utf8)) }
        }
        let tracked = json.replacingOccurrences(of: #""near":{"position":[1,2,3],"radius":4}"#,
                                                with: #""priorAccuracy":{"position":0.1,"rotationDegrees":0.5}"#)
        let withAccuracy = try JSONDecoder().decode(LocalizeRequest.self, from: Data(tracked.utf8))
        #expect(withAccuracy.priorAccuracy == PoseAccuracy(position: 0.1, rotationDegrees: 0.5))
        #expect(try JSONDecoder().decode(LocalizeRequest.self, from: JSONEncoder().encode(withAccuracy)) == withAccuracy)
        let nan = tracked.replacingOccurrences(of: "0.5}", with: "-1}")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LocalizeRequest.self, from: Data(nan.utf8)) }
        #expect(try BatchLocalizer.BatchLocation.parse("gps") == .eachFrameGPS)
        #expect(throws: BatchLocalizer.BatchLocation.ParseError.self) { try BatchLocalizer.BatchLocation.parse("48.2,16.3") }
        #expect(throws: BatchLocalizer.BatchLocation.ParseError.self) { try BatchLocalizer.BatchLocation.parse("48.2,16.3,-5") }
    }
}
