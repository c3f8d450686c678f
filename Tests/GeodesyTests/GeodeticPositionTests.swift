import Foundation
import Geodesy
import Geometry
import Support
import Testing

@Suite struct GeodeticPositionTests {
    /// EPSG Guidance Note 7-2, the worked example of geographic/geocentric conversions
    /// (method 9602) on WGS 84: ECEF given to the millimetre.
    static let epsgPoint = GeodeticPosition(latitude: 53 + 48.0 / 60 + 33.820 / 3600,
                                            longitude: 2 + 7.0 / 60 + 46.380 / 3600, height: 73.0)
    static let epsgECEF = SIMD3(3_771_793.968, 140_253.342, 5_124_304.349)

    @Test func epsgExampleToECEF() {
        let e = Self.epsgPoint.ecef
        #expect(abs(e.x - Self.epsgECEF.x) <= 0.0005)
        #expect(abs(e.y - Self.epsgECEF.y) <= 0.0005)
        #expect(abs(e.z - Self.epsgECEF.z) <= 0.0005)
    }

    @Test func epsgExampleFromECEF() {
        let g = GeodeticPosition(ecef: Self.epsgECEF)
        // The ECEF values are rounded to 0.5 mm: 1.6e-5″ of arc, far below the 0.001″ the note states.
        #expect(abs(g.latitude - Self.epsgPoint.latitude) * 3600 < 1e-4)
        #expect(abs(g.longitude - Self.epsgPoint.longitude) * 3600 < 1e-4)
        #expect(abs(g.height - 73.0) < 0.001)
    }

    /// GeographicLib's CartConvert manual: "33.3 44.4 6000" gives "3816209.60 3737108.55 3485109.57".
    @Test func geographicLibExample() {
        let e = GeodeticPosition(latitude: 33.3, longitude: 44.4, height: 6000).ecef
        #expect(abs(e.x - 3_816_209.60) < 0.005 && abs(e.y - 3_737_108.55) < 0.005 && abs(e.z - 3_485_109.57) < 0.005)
        let g = GeodeticPosition(ecef: e)
        #expect(abs(g.latitude - 33.3) < 1e-12 && abs(g.longitude - 44.4) < 1e-12 && abs(g.height - 6000) < 1e-7)
    }

    @Test func polesAndEquator() {
        let north = GeodeticPosition(latitude: 90, longitude: 0, height: 100).ecef
        #expect(abs(north.x) < 1e-9 && abs(north.y) < 1e-9 && abs(north.z - (WGS84.semiMinorAxis + 100)) < 1e-8)
        let back = GeodeticPosition(ecef: SIMD3(0, 0, -(WGS84.semiMinorAxis + 250)))
        #expect(back.latitude == -90 && abs(back.height - 250) < 1e-8)
        let equator = GeodeticPosition(latitude: 0, longitude: 90, height: -10).ecef
        #expect(abs(equator.x) < 1e-9 && abs(equator.y - (WGS84.semiMajorAxis - 10)) < 1e-8 && equator.z == 0)
        let onAxis = GeodeticPosition(ecef: SIMD3(WGS84.semiMajorAxis + 5, 0, 0))
        #expect(onAxis.latitude == 0 && onAxis.longitude == 0 && abs(onAxis.height - 5) < 1e-9)
        #expect(abs(WGS84.semiMinorAxis - 6_356_752.314_245) < 1e-6)
    }

    /// Geodetic → ECEF → geodetic everywhere (the poles and the antimeridian included),
    /// from 10 km below the ellipsoid to 1000 km above it, agrees to well under a micrometre.
    @Test func roundTripsAreExact() {
        var rng = SplitMix64(seed: 42)
        var worst = 0.0
        let special: [Double] = [90, -90, 89.999_999_9, -89.999_999_9, 0, 1e-12, 45]
        for k in 0..<20_000 {
            let latitude = k < special.count ? special[k] : rng.unit() * 180 - 90
            let longitude = k % 7 == 0 ? 180 : rng.unit() * 360 - 180
            let height = [-10_000, 0, 1_000_000][k % 3] + (k % 5 == 0 ? 0 : rng.unit() * 1_000_000 - 10_000)
            let p = GeodeticPosition(latitude: latitude, longitude: longitude, height: height)
            let q = GeodeticPosition(ecef: p.ecef)
            var dλ = abs(q.longitude - p.longitude)
            dλ = min(dλ, 360 - dλ)
            let r = WGS84.semiMajorAxis + height
            // Metres along the meridian, along the parallel, and up.
            let error = max(abs(q.latitude - p.latitude) * .pi / 180 * r,
                            dλ * .pi / 180 * r * cos(latitude * .pi / 180), abs(q.height - p.height))
            worst = max(worst, error)
        }
        #expect(worst < 1e-6, "worst round-trip error \(worst) m")
    }

    @Test func nearTheCentreStillGivesAPosition() {
        for p in [SIMD3<Double>(0, 0, 0), SIMD3(1000, 2000, 3000), SIMD3(-20_000, 5, -10_000)] {
            let g = GeodeticPosition(ecef: p)
            #expect(g.problem == nil)
            #expect(length(g.ecef - p) < 1e-3, "\(p) → \(g) → \(g.ecef)")
        }
    }

    @Test func jsonUsesReadableNamesAndRefusesNonsense() throws {
        let json = String(decoding: try JSONEncoder().encode(GeodeticPosition(latitude: 1.5, longitude: -2, height: 3)),
                          as: UTF8.self)
        #expect(json.contains("\"latitude\":1.5") && json.contains("\"longitude\":-2") && json.contains("\"height\":3"))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(GeodeticPosition.self, from: Data(#"{"latitude": 91, "longitude": 0, "height": 0}"#.utf8))
        }
    }
}
