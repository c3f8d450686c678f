import Foundation
import Geodesy
import Geometry
import Testing

@Suite struct GeoreferenceTests {
    let origin = GeodeticPosition(latitude: 48.8584, longitude: 2.2945, height: 95)

    private func expectClose(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ tolerance: Double = 1e-9,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(length(a - b) < tolerance, "\(a) vs \(b)", sourceLocation: sourceLocation)
    }

    /// arcloud's maps: +y up; heading 90° puts +x east, so +z (x × y) points south.
    @Test func manualHeadingEast() throws {
        let g = try Georeference.manual(origin: origin, headingDegrees: 90)
        expectClose(g.enu(ofMapPoint: SIMD3(10, 0, 0)), SIMD3(10, 0, 0))
        expectClose(g.enu(ofMapPoint: SIMD3(0, 5, 0)), SIMD3(0, 0, 5))
        expectClose(g.enu(ofMapPoint: SIMD3(0, 0, 3)), SIMD3(0, -3, 0))
        #expect(g.source == .manual && g.scale == 1 && g.residuals == nil && g.problem == nil)
        let p = g.position(ofMapPoint: .zero)
        #expect(abs(p.latitude - origin.latitude) < 1e-12 && abs(p.height - origin.height) < 1e-8)
    }

    @Test func manualHeadingIsAClockwiseCompassBearing() throws {
        for heading in [0.0, 30, 135, 270, -45, 400] {
            let g = try Georeference.manual(origin: origin, headingDegrees: heading, scale: 2)
            let β = heading * .pi / 180
            expectClose(g.enu(ofMapPoint: SIMD3(1, 0, 0)), 2 * SIMD3(sin(β), cos(β), 0))
            expectClose(g.enu(ofMapPoint: SIMD3(0, 1, 0)), SIMD3(0, 0, 2))
        }
    }

    /// A COLMAP-style map with −z up and +y forward; only the part of `mapForward`
    /// perpendicular to up counts.
    @Test func manualWithOtherAxes() throws {
        let g = try Georeference.manual(origin: origin, headingDegrees: 0, mapUp: SIMD3(0, 0, -3),
                                        mapForward: SIMD3(0, 2, 5))
        expectClose(g.enu(ofMapPoint: SIMD3(0, 0, -1)), SIMD3(0, 0, 1))
        expectClose(g.enu(ofMapPoint: SIMD3(0, 1, 0)), SIMD3(0, 1, 0))
        #expect(abs(g.rotation.matrix.determinant - 1) < 1e-12)
    }

    @Test func manualRefusesBadArguments() {
        #expect(throws: Georeference.ManualError.self) {
            try Georeference.manual(origin: origin, headingDegrees: 0, mapUp: SIMD3(0, 1, 0), mapForward: SIMD3(0, -2, 0))
        }
        #expect(throws: Georeference.ManualError.self) { try Georeference.manual(origin: origin, headingDegrees: 0, mapUp: .zero) }
        #expect(throws: Georeference.ManualError.self) { try Georeference.manual(origin: origin, headingDegrees: .nan) }
        #expect(throws: Georeference.ManualError.self) { try Georeference.manual(origin: origin, headingDegrees: 0, scale: 0) }
        #expect(throws: Georeference.ManualError.self) {
            try Georeference.manual(origin: GeodeticPosition(latitude: 100, longitude: 0), headingDegrees: 0)
        }
    }

    @Test func mapPointsAndPositionsRoundTrip() {
        let g = Georeference(origin: origin, scale: 0.37, rotation: Quaternion(axis: SIMD3(0.2, 1, -0.4), angle: 2.1),
                             translation: SIMD3(120, -45, 3), source: .controlPoints)
        for p in [SIMD3<Double>(0, 0, 0), SIMD3(1000, -20, 300), SIMD3(-5e4, 10, 2e4)] {
            expectClose(g.mapPoint(of: g.position(ofMapPoint: p)), p, 1e-6)
            expectClose(g.mapPoint(ofENU: g.enu(ofMapPoint: p)), p)
        }
    }

    /// `map inspect`'s line for a fit to ground control points, and the source as map files store it.
    @Test func aControlPointFitDescribesItselfAndReadsBack() throws {
        let g = Georeference(origin: origin, scale: 1, rotation: .identity, translation: .zero, source: .controlPoints,
                             residuals: .init(horizontalRMS: 0.0123, verticalRMS: 0.02, inliers: 4, readings: 5))
        #expect(g.description.hasPrefix("controlPoints: origin 48.8584000, 2.2945000, 95.00 m")
                && g.description.hasSuffix("from 4 of 5 ground control points, residual RMS 0.012 m horizontal, 0.020 m vertical"),
                "\(g.description)")
        let json = try JSONEncoder().encode(g)
        #expect(String(decoding: json, as: UTF8.self).contains(#""source":"controlPoints""#))
        #expect(try JSONDecoder().decode(Georeference.self, from: json).source == .controlPoints)
    }

    @Test func jsonHasReadableFieldsAndRoundTrips() throws {
        let g = Georeference(origin: origin, scale: 1.5, rotation: Quaternion(axis: SIMD3(0, 0, 1), angle: 0.3),
                             translation: SIMD3(1, 2, 3), source: .gps,
                             residuals: .init(horizontalRMS: 2.5, verticalRMS: 6, inliers: 40, readings: 44))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(g), as: UTF8.self)
        for field in [#""origin":{"height":95,"latitude":48.8584,"longitude":2.2945}"#, #""scale":1.5"#,
                      #""translation":{"east":1,"north":2,"up":3}"#, #""source":"gps""#,
                      #""residuals":{"horizontalRMS":2.5,"inliers":40,"readings":44,"verticalRMS":6}"#, #""rotation":{"#] {
            #expect(json.contains(field), "\(field) not in \(json)")
        }
        let back = try JSONDecoder().decode(Georeference.self, from: Data(json.utf8))
        #expect(back.origin == g.origin && back.scale == g.scale && back.translation == g.translation)
        #expect(back.source == g.source && back.residuals == g.residuals && back.rotation.angle(to: g.rotation) < 1e-12)
    }

    @Test func jsonRefusesWhatIsNoGeoreference() {
        let bad = [
            #"{"origin":{"latitude":0,"longitude":0,"height":0},"scale":0,"rotation":{"x":0,"y":0,"z":0,"w":1},"translation":{"east":0,"north":0,"up":0},"source":"manual"}"#,
            #"{"origin":{"latitude":0,"longitude":0,"height":0},"scale":1,"rotation":{"x":0,"y":0,"z":0,"w":2},"translation":{"east":0,"north":0,"up":0},"source":"manual"}"#,
            #"{"origin":{"latitude":0,"longitude":0,"height":0},"scale":1,"rotation":{"x":0,"y":0,"z":0,"w":1},"translation":{"east":0,"north":0,"up":0},"source":"guess"}"#,
        ]
        for json in bad {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(Georeference.self, from: Data(json.utf8)) }
        }
    }
}
