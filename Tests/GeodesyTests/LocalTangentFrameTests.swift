import Foundation
import Geodesy
import Geometry
import Support
import Testing

@Suite struct LocalTangentFrameTests {
    /// EPSG Guidance Note 7-2, the worked example of geocentric/topocentric conversions
    /// (method 9837): topocentric origin 55° N 5° E 200 m, the point of the geographic
    /// example at U = −189 013.869, V = −128 642.040, W = −4 220.171 m.
    @Test func epsgTopocentricExample() {
        let frame = LocalTangentFrame(origin: GeodeticPosition(latitude: 55, longitude: 5, height: 200))
        #expect(length(frame.originECEF - SIMD3(3_652_755.3058, 319_574.6799, 5_201_547.3536)) < 0.0001)
        let enu = frame.enu(of: GeodeticPositionTests.epsgPoint)
        #expect(abs(enu.x - -189_013.869) < 0.0005 && abs(enu.y - -128_642.040) < 0.0005 && abs(enu.z - -4_220.171) < 0.0005)
        let back = frame.position(ofENU: SIMD3(-189_013.869, -128_642.040, -4_220.171))
        #expect(abs(back.latitude - GeodeticPositionTests.epsgPoint.latitude) * 3600 < 1e-4)
        #expect(abs(back.height - 73) < 0.001)
    }

    /// GeographicLib's CartConvert manual: "33.3 44.4 6000" about "-l 33 44 20" gives
    /// "37288.97 33374.29 5783.64".
    @Test func geographicLibLocalExample() {
        let frame = LocalTangentFrame(origin: GeodeticPosition(latitude: 33, longitude: 44, height: 20))
        let enu = frame.enu(of: GeodeticPosition(latitude: 33.3, longitude: 44.4, height: 6000))
        #expect(abs(enu.x - 37_288.97) < 0.01 && abs(enu.y - 33_374.29) < 0.01 && abs(enu.z - 5_783.64) < 0.01)
    }

    /// A point 1 km east along the origin's parallel, at the origin's height, lies below the
    /// tangent plane by d²/(2(N + h)) ≈ 7.8 cm: the frame is exact, not flat-earth.
    @Test func theEarthCurvesAwayBelowTheFrame() {
        let origin = GeodeticPosition(latitude: 45, longitude: 10, height: 100)
        let frame = LocalTangentFrame(origin: origin)
        let φ = origin.latitude * .pi / 180
        let n = WGS84.semiMajorAxis / (1 - WGS84.eccentricitySquared * sin(φ) * sin(φ)).squareRoot()
        let ρ = (n + origin.height) * cos(φ)           // radius of the parallel
        let Δ = 1000 / ρ
        let east = frame.enu(of: GeodeticPosition(latitude: 45, longitude: 10 + Δ * 180 / .pi, height: 100))
        #expect(abs(east.x - ρ * sin(Δ)) < 1e-6)
        #expect(abs(east.z - ρ * (cos(Δ) - 1) * cos(φ)) < 1e-6)
        #expect(abs(east.z - -0.078) < 0.001, "up \(east.z) m")
        #expect(abs(east.y - -ρ * (cos(Δ) - 1) * sin(φ)) < 1e-6)
        // The other way: the frame's point 1 km east stands 7.8 cm above the ellipsoid there.
        let above = frame.position(ofENU: SIMD3(1000, 0, 0))
        #expect(abs(above.height - origin.height - 0.0783) < 0.001)
    }

    @Test func roundTripsEverywhere() {
        var rng = SplitMix64(seed: 7)
        var worst = 0.0
        for k in 0..<2000 {
            let latitude = k < 2 ? [90.0, -90][k] : rng.unit() * 180 - 90
            let frame = LocalTangentFrame(origin: GeodeticPosition(latitude: latitude, longitude: rng.unit() * 360 - 180,
                                                                   height: rng.unit() * 3000 - 500))
            let enu = SIMD3(rng.unit() - 0.5, rng.unit() - 0.5, (rng.unit() - 0.5) * 0.1) * 200_000
            worst = max(worst, length(frame.enu(of: frame.position(ofENU: enu)) - enu))
            let r = frame.ecefToENU * frame.enuToECEF
            #expect(length(r.r0 - SIMD3(1, 0, 0)) + length(r.r1 - SIMD3(0, 1, 0)) + length(r.r2 - SIMD3(0, 0, 1)) < 1e-14)
            #expect(abs(frame.ecefToENU.determinant - 1) < 1e-14)
        }
        #expect(worst < 1e-6, "worst ENU round trip \(worst) m")
    }

    @Test func rotationBetweenFramesGoesThroughECEF() {
        let a = LocalTangentFrame(origin: GeodeticPosition(latitude: 48.85, longitude: 2.35, height: 50))
        let b = LocalTangentFrame(origin: GeodeticPosition(latitude: 48.95, longitude: 2.75, height: 80))
        let identity = a.rotation(to: a)
        #expect(length(identity.r0 - SIMD3(1, 0, 0)) + length(identity.r1 - SIMD3(0, 1, 0)) < 1e-15)
        // b's up, seen from a, is rotated into b's own up.
        let upOfBInA = a.ecefToENU * b.enuToECEF * SIMD3(0, 0, 1)
        #expect(length(a.rotation(to: b) * upOfBInA - SIMD3(0, 0, 1)) < 1e-15)
        // The normals 33 km apart differ by about 0.3°.
        let angle = acos(dot(upOfBInA, SIMD3(0, 0, 1))) * 180 / .pi
        #expect(angle > 0.25 && angle < 0.35)
    }
}
