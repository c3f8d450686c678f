import Localization
import Testing
import Foundation
import Geometry
import TestSupport
import VPSModel

/// Bad input to the localizer: a clear typed error, never a crash.
@Suite struct LocalizerInputTests {
    static let root = PackageDirectory.root
    var camera: CameraIntrinsics {
        get throws { try RecordedSession.load(from: Self.root.appendingPathComponent("Datasets/gallery-query-walk")).camera }
    }

    func localizer() throws -> Localizer {
        try Localizer(map: try #require(ShippedLocalizationTests.map))
    }

    func frameBytes() throws -> [UInt8] {
        let dir = Self.root.appendingPathComponent("Datasets/gallery-query-walk")
        let s = try RecordedSession.load(from: dir)
        return try [UInt8](Data(contentsOf: RecordedSession.imageURL(of: s.frames[0], in: dir)))
    }

    @Test func badImagesAreTypedErrors() throws {
        let loc = try localizer()
        let camera = try camera
        let good = try frameBytes()
        for bad in [[], Array(good.prefix(good.count / 3)), [UInt8](repeating: 0x42, count: 1000)] {
            #expect(throws: LocalizationError.self) { try loc.localize(encoded: bad, intrinsics: camera) }
        }
    }

    @Test func wrongIntrinsicsAreTypedErrors() throws {
        let loc = try localizer()
        let camera = try camera
        let bytes = try frameBytes()
        var negative = camera; negative.fx = -5
        var otherSize = camera; otherSize.width = 1280; otherSize.cx = 640
        for k in [negative, otherSize] {
            #expect(throws: LocalizationError.self) { try loc.localize(encoded: bytes, intrinsics: k) }
        }
    }

    @Test(arguments: [SIMD3<Double>(0, 0, 0), SIMD3<Double>(.nan, -1, 0), SIMD3<Double>(0, -.infinity, 0)])
    func badGravityIsATypedError(gravity: SIMD3<Double>) throws {
        let loc = try localizer()
        let camera = try camera
        let bytes = try frameBytes()
        #expect(throws: LocalizationError.invalidGravity) {
            try loc.localize(encoded: bytes, intrinsics: camera, gravity: gravity)
        }
    }

    @Test func repeatedCallsGiveTheSamePose() throws {
        let loc = try localizer()
        let camera = try camera
        let bytes = try frameBytes()
        let a = try loc.localize(encoded: bytes, intrinsics: camera)
        let b = try loc.makeWorker().localize(encoded: bytes, intrinsics: camera)
        #expect(a.isLocalized)
        #expect(a.pose == b.pose)
    }
}
