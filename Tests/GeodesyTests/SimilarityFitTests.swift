import Foundation
import Geodesy
import Geometry
import Support
import Testing

@Suite struct SimilarityFitTests {
    /// The truth: a map (+y up, 1.25 m per unit) at 37° in Paris, 120 m east of the origin.
    static func truth() throws -> Georeference {
        var g = try Georeference.manual(origin: GeodeticPosition(latitude: 48.8566, longitude: 2.3522, height: 60),
                                        headingDegrees: 37, scale: 1.25)
        g.translation = SIMD3(120, -40, 3)
        return g
    }

    /// A walk over `size` map units: a lawnmower of `rows` legs on a floor with a little
    /// vertical wobble (the camera held at different heights).
    static func path(count: Int, size: SIMD2<Double>, rows: Int = 4, rng: inout SplitMix64) -> [SIMD3<Double>] {
        (0..<count).map { k in
            let t = Double(k) / Double(count - 1) * Double(rows)
            let row = min(Int(t), rows - 1), along = t - Double(row)
            let x = (row % 2 == 0 ? along : 1 - along) * size.x
            let z = Double(row) / Double(max(rows - 1, 1)) * size.y
            return SIMD3(x, 1.5 + (rng.unit() - 0.5) * 0.4, z)
        }
    }

    /// Readings with σ per horizontal axis `sigma` and vertical `verticalSigma` (stated as
    /// 95 % accuracies, half of them without an altitude accuracy when `statesAltitude` is
    /// false), a fraction `outliers` of them displaced 100 m in a random direction.
    static func readings(of truth: Georeference, at map: [SIMD3<Double>], sigma: Double, verticalSigma: Double,
                         outliers: Double, rng: inout SplitMix64) -> (correspondences: [SimilarityFit.Correspondence],
                                                                       isOutlier: [Bool]) {
        var out: [SimilarityFit.Correspondence] = [], isOutlier: [Bool] = []
        for (k, p) in map.enumerated() {
            var enu = truth.enu(ofMapPoint: p)
                + SIMD3(sigma * rng.gaussian(), sigma * rng.gaussian(), verticalSigma * rng.gaussian())
            let outlier = rng.unit() < outliers
            if outlier {
                let a = rng.unit() * 2 * .pi
                enu += SIMD3(100 * cos(a), 100 * sin(a), 0)
            }
            let reading = GPSReading(position: truth.frame.position(ofENU: enu), accuracy: sigma * 2.4477,
                                     altitudeAccuracy: k % 2 == 0 ? verticalSigma * 1.96 : nil)
            out.append(.init(mapPosition: p, reading: reading))
            isOutlier.append(outlier)
        }
        return (out, isOutlier)
    }

    /// How far the fit puts the map points from the truth, in the truth's ENU metres: the
    /// worst and the root mean square, horizontally and vertically.
    static func errors(_ fit: Georeference, _ truth: Georeference, at map: [SIMD3<Double>])
        -> (horizontal: Double, vertical: Double, horizontalRMS: Double, verticalRMS: Double) {
        var h = 0.0, v = 0.0, h2 = 0.0, v2 = 0.0
        for p in map {
            let d = truth.frame.enu(of: fit.position(ofMapPoint: p)) - truth.enu(ofMapPoint: p)
            h = max(h, (d.x * d.x + d.y * d.y).squareRoot()); v = max(v, abs(d.z))
            h2 += d.x * d.x + d.y * d.y; v2 += d.z * d.z
        }
        let n = Double(map.count)
        return (h, v, (h2 / n).squareRoot(), (v2 / n).squareRoot())
    }

    /// The compass bearing (degrees) of the map's +x axis under a georeference.
    static func heading(_ g: Georeference) -> Double {
        let x = g.rotation.rotate(SIMD3(1, 0, 0))
        return atan2(x.x, x.y) * 180 / .pi
    }

    /// 5 m GPS noise, 10 % of the readings 100 m off, 400 readings over a 160 × 96 m walk
    /// (under 7 minutes at 1 Hz): the map within a metre (RMS; 1.5 m at the worst corner)
    /// and a degree, every outlier rejected. Least squares on the good readings alone is
    /// about this far off: the centroid by 5/√360 = 0.26 m an axis, the heading and scale by
    /// about 0.25° and 0.4 % (1σ); over 300 seeds, the mean RMS error is 0.47 m.
    @Test func recoversTheTruthThroughNoiseAndOutliers() throws {
        let truth = try Self.truth()
        var rng = SplitMix64(seed: 11)
        let map = Self.path(count: 400, size: SIMD2(128, 77), rng: &rng)
        let (correspondences, isOutlier) = Self.readings(of: truth, at: map, sigma: 5, verticalSigma: 10, outliers: 0.1,
                                                         rng: &rng)
        let result = try SimilarityFit.fit(correspondences)
        let g = result.georeference
        let e = Self.errors(g, truth, at: map)
        #expect(e.horizontalRMS < 1.0 && e.horizontal < 1.5, "horizontal error \(e)")
        #expect(e.verticalRMS < 2.0 && e.vertical < 3.0, "vertical error \(e)")
        #expect(abs(Self.heading(g) - 37) < 1, "heading \(Self.heading(g))°")
        #expect(abs(g.scale / 1.25 - 1) < 0.01, "scale \(g.scale)")
        #expect(g.source == .gps && g.problem == nil)
        let r = try #require(g.residuals)
        #expect(zip(result.isInlier, isOutlier).allSatisfy { !($0 && $1) }, "an outlier was kept")
        #expect(r.inliers == result.isInlier.filter { $0 }.count && r.readings == 400)
        #expect(r.inliers >= isOutlier.filter { !$0 }.count * 95 / 100)
        // RMS of two axes of σ = 5 m is 7.1 m; of σ = 10 m vertically, 10 m.
        #expect(r.horizontalRMS > 6 && r.horizontalRMS < 8.2, "\(r)")
        #expect(r.verticalRMS > 8 && r.verticalRMS < 12, "\(r)")
        #expect(try SimilarityFit.fit(correspondences) == result, "not deterministic")
    }

    /// A metric map's scale held: the fit keeps it exactly, and with it the heading and
    /// the place come out closer than a fitted scale lets them, and its own 95 % bound
    /// (`Georeference.bounds(at:)`) holds the error.
    @Test func aHeldScaleIsKeptAndTheFitsBoundHoldsItsError() throws {
        var truth = try Self.truth()
        truth.scale = 1
        var rng = SplitMix64(seed: 5)
        let map = Self.path(count: 150, size: SIMD2(90, 30), rng: &rng)
        let (correspondences, _) = Self.readings(of: truth, at: map, sigma: 5, verticalSigma: 10, outliers: 0.05,
                                                 rng: &rng)
        var options = SimilarityFit.Options()
        options.scale = 1
        let g = try SimilarityFit.fit(correspondences, options: options).georeference
        #expect(g.scale == 1)
        let free = try SimilarityFit.fit(correspondences).georeference
        let held = Self.errors(g, truth, at: map), fitted = Self.errors(free, truth, at: map)
        #expect(held.horizontalRMS < 1.5, "\(held)")
        #expect(held.horizontalRMS <= fitted.horizontalRMS * 1.05, "held \(held), fitted \(fitted)")
        for p in [map[0], map[75], map[149]] {
            let d = truth.frame.enu(of: g.position(ofMapPoint: p)) - truth.enu(ofMapPoint: p)
            #expect((d.x * d.x + d.y * d.y).squareRoot() <= g.bounds(at: p).horizontal, "\(d) vs \(g.bounds(at: p))")
        }
        #expect(g.bounds(at: map[0]).horizontal < 3 && g.bounds(at: map[0]).headingDegrees < 3)
    }

    /// With the up unknown, exact readings give back the exact transform, whatever the rotation.
    @Test func freeRotationIsExactOnExactReadings() throws {
        var rng = SplitMix64(seed: 5)
        let truth = Georeference(origin: GeodeticPosition(latitude: -33.86, longitude: 151.21, height: 20), scale: 0.8,
                                 rotation: Quaternion(axis: SIMD3(0.3, -1, 0.5), angle: 2.4),
                                 translation: SIMD3(-30, 55, 7), source: .controlPoints)
        let map = (0..<30).map { _ in SIMD3(rng.unit(), rng.unit(), rng.unit()) * 100 }
        let correspondences = map.map {
            SimilarityFit.Correspondence(mapPosition: $0, reading: GPSReading(
                position: truth.position(ofMapPoint: $0), accuracy: 0.01, altitudeAccuracy: 0.02))
        }
        let g = try SimilarityFit.fit(correspondences, options: .init(mapUp: nil, source: .controlPoints)).georeference
        let e = Self.errors(g, truth, at: map)
        #expect(e.horizontal < 1e-6 && e.vertical < 1e-6, "\(e)")
        #expect(g.source == .controlPoints && abs(g.scale - 0.8) < 1e-9)
    }

    /// With the up unknown and a walk with some height to it, noisy readings still give the
    /// map's tilt: the altitudes, weighted by their accuracy, carry it.
    @Test func freeRotationThroughNoise() throws {
        let truth = try Self.truth()
        var rng = SplitMix64(seed: 19)
        // Two floors of a car park, 30 map units apart.
        var map = Self.path(count: 300, size: SIMD2(128, 77), rng: &rng)
        for k in map.indices where k % 2 == 1 { map[k].y += 30 }
        let (correspondences, _) = Self.readings(of: truth, at: map, sigma: 3, verticalSigma: 4, outliers: 0.05, rng: &rng)
        let g = try SimilarityFit.fit(correspondences, options: .init(mapUp: nil)).georeference
        let e = Self.errors(g, truth, at: map)
        #expect(e.horizontalRMS < 1 && e.verticalRMS < 1.5 && e.horizontal < 2 && e.vertical < 3, "\(e)")
        let up = g.rotation.rotate(SIMD3(0, 1, 0))
        #expect(angleDegrees(between: up, and: SIMD3(0, 0, 1)) < 1, "tilt \(angleDegrees(between: up, and: SIMD3(0, 0, 1)))°")
    }

    @Test func refusesTooFewUsableReadings() throws {
        let truth = try Self.truth()
        var rng = SplitMix64(seed: 1)
        let (two, _) = Self.readings(of: truth, at: [SIMD3(0, 0, 0), SIMD3(100, 0, 0)], sigma: 2, verticalSigma: 5,
                                     outliers: 0, rng: &rng)
        #expect(throws: SimilarityFitError.tooFewReadings(usable: 2)) { try SimilarityFit.fit(two) }
        var (five, _) = Self.readings(of: truth, at: (0..<5).map { SIMD3(Double($0) * 50, 0, 0) }, sigma: 2,
                                      verticalSigma: 5, outliers: 0, rng: &rng)
        five[0].reading.accuracy = 0
        five[1].reading.accuracy = .nan
        five[2].reading.position.latitude = 95
        five[3].mapPosition.x = .infinity
        #expect(throws: SimilarityFitError.tooFewReadings(usable: 1)) { try SimilarityFit.fit(five) }
    }

    /// A camera path spanning 5 m cannot be georeferenced from 10 m GPS: the readings are
    /// within their noise of each other.
    @Test func refusesABaselineWithinTheNoise() throws {
        let truth = try Self.truth()
        var rng = SplitMix64(seed: 23)
        let map = Self.path(count: 80, size: SIMD2(4, 4), rng: &rng)    // 5 m of walk at 1.25 m per unit
        let (correspondences, _) = Self.readings(of: truth, at: map, sigma: 10, verticalSigma: 15, outliers: 0, rng: &rng)
        do {
            _ = try SimilarityFit.fit(correspondences)
            Issue.record("a 5 m walk was georeferenced from 10 m GPS")
        } catch SimilarityFitError.shortBaseline(let baseline, let needed) {
            #expect(needed > 45 && baseline < needed)
        }
    }

    /// With the up unknown, readings along a straight line leave the roll about it free.
    @Test func refusesCollinearReadingsWhenUpIsUnknown() throws {
        let truth = try Self.truth()
        var rng = SplitMix64(seed: 29)
        let map = (0..<60).map { SIMD3(Double($0) * 3, 1.5, 0) }
        let (correspondences, _) = Self.readings(of: truth, at: map, sigma: 2, verticalSigma: 4, outliers: 0, rng: &rng)
        #expect(throws: (any Error).self) { try SimilarityFit.fit(correspondences, options: .init(mapUp: nil)) }
        do {
            _ = try SimilarityFit.fit(correspondences, options: .init(mapUp: nil))
        } catch let error as SimilarityFitError {
            if case .collinear = error {} else { Issue.record("\(error)") }
        }
        // With up known, the same line fixes heading and scale.
        #expect(throws: Never.self) { try SimilarityFit.fit(correspondences) }
    }

    /// A street walked forward, photographed 9 times, reconstructed in its own units and
    /// frame (a COLMAP model): with the up unknown the readings leave the roll about the
    /// street free. The cameras' up, off by 5° of pitch and 2° of roll as handheld photos
    /// are, stands in for it: every camera, and a point 3 m beside the path, lands within
    /// the readings' median stated accuracy (their 95 % radius) of the truth and within 1 m
    /// of where a fit knowing the true up puts it, and the map's up within 6° of up, on
    /// every seed. Without the hint the fit says the readings are collinear.
    @Test(arguments: 1...12) func aStreetAlongALineFitsWithTheCamerasUp(seed: UInt64) throws {
        let truth = try Self.truth()
        var rng = SplitMix64(seed: seed)
        // 80 m of street at 1.25 m per unit, held at 1.5 ± 0.1 units, 0.3 units of sway.
        let upright = (0..<9).map { k in SIMD3(Double(k) * 8, 1.5 + (rng.unit() - 0.5) * 0.2, (rng.unit() - 0.5) * 0.6) }
        let beside = upright.map { $0 + SIMD3(0, 0, 2.4) }
        var correspondences: [SimilarityFit.Correspondence] = [], accuracies: [Double] = []
        let frame = Quaternion(axis: SIMD3(0.3, -0.8, 0.5), angle: 2.1)        // the model's arbitrary frame
        for p in upright {
            let accuracy = 5 + 5 * rng.unit(), sigma = accuracy / 2.4477
            accuracies.append(accuracy)
            let enu = truth.enu(ofMapPoint: p) + SIMD3(sigma * rng.gaussian(), sigma * rng.gaussian(), 2 * sigma * rng.gaussian())
            correspondences.append(.init(mapPosition: frame.rotate(p),
                                         reading: GPSReading(position: truth.frame.position(ofENU: enu), accuracy: accuracy)))
        }
        var options = SimilarityFit.Options(mapUp: nil)
        #expect(throws: SimilarityFitError.self) { try SimilarityFit.fit(correspondences, options: options) }
        let tilt = Quaternion(axis: SIMD3(0, 0, 1), angle: 5 * .pi / 180) * Quaternion(axis: SIMD3(1, 0, 0), angle: 2 * .pi / 180)
        options.upHint = frame.rotate(tilt.rotate(SIMD3(0, 1, 0)))
        let result = try SimilarityFit.fit(correspondences, options: options)
        #expect(result.usedUpHint)
        let fit = result.georeference
        let known = try SimilarityFit.fit(correspondences, options: .init(mapUp: frame.rotate(SIMD3(0, 1, 0)))).georeference
        let bound = try #require(Statistics.median(accuracies))
        func error(_ g: Georeference, _ p: SIMD3<Double>) -> Double {
            let d = truth.frame.enu(of: g.position(ofMapPoint: frame.rotate(p))) - truth.enu(ofMapPoint: p)
            return (d.x * d.x + d.y * d.y).squareRoot()
        }
        for p in upright + beside {
            #expect(error(fit, p) < bound && error(fit, p) < error(known, p) + 1,
                    "seed \(seed) at \(p): \(error(fit, p)) m, \(error(known, p)) m with the true up; bound \(bound) m")
        }
        let up = fit.rotation.rotate(frame.rotate(SIMD3(0, 1, 0)))
        #expect(acos(min(1, up.z)) * 180 / .pi < 6, "seed \(seed): up \(up)")
    }

    @Test func refusesBadOptions() {
        #expect(throws: SimilarityFitError.self) { try SimilarityFit.fit([], options: .init(confidence: 1)) }
        #expect(throws: SimilarityFitError.self) { try SimilarityFit.fit([], options: .init(mapUp: .zero)) }
        #expect(SimilarityFitError.shortBaseline(baseline: 4.2, needed: 50).description.contains("4.20 m"))
    }
}
