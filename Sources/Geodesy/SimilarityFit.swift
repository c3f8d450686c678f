import Foundation
import Geometry
import Support

/// Georeferences a map from GPS readings taken where the map's cameras were: a robust,
/// weighted fit of the similarity transform from map coordinates to east-north-up.
///
/// 1. The usable readings (`GPSReading.problem` nil) go to ENU at a provisional origin,
///    their centroid weighted by 1/σ²; that origin becomes the georeference's.
/// 2. RANSAC over minimal sets: with the map's up known, the rotation is a yaw about up
///    and 2 readings fix yaw, scale and translation; with it unknown, 3 readings and a free
///    rotation (Horn's closed form). A reading agrees with a transform when its residual,
///    in units of its own σ (horizontal from `accuracy`, vertical from `altitudeAccuracy`
///    or `Options.defaultAltitudeAccuracy`), has χ² (3 degrees of freedom) below
///    `Options.inlierChiSquare`. Transforms are ranked by the MSAC cost Σ min(χ², bound).
/// 3. The best transform is refitted to its inliers by weighted least squares (1/σ², the
///    horizontal and the vertical apart) until the inliers stop changing.
///
/// With up known, yaw and scale come from the horizontal coordinates alone and the height
/// only sets the vertical offset: phones report altitude poorly, and a map walked on one
/// floor says nothing about scale vertically.
///
/// With up unknown, readings along a line (a street walked forward) fix the line's
/// direction, the scale and the offset, but not the map's roll about the line. Given
/// `Options.upHint` (the map's up as its cameras suggest), such a fit is redone with the
/// hint as the map's up; without one it is refused (`SimilarityFitError.collinear`).
///
/// Deterministic: the same readings and options give the same georeference, bit for bit
/// (a seeded `SplitMix64` draws the samples).
public enum SimilarityFit {
    /// A map position (map units) and the GPS reading taken there.
    public struct Correspondence: Sendable, Hashable {
        public var mapPosition: SIMD3<Double>
        public var reading: GPSReading

        public init(mapPosition: SIMD3<Double>, reading: GPSReading) {
            self.mapPosition = mapPosition; self.reading = reading
        }
    }

    public struct Options: Sendable, Hashable {
        /// The map's up direction in map coordinates (any non-zero length), or nil when it
        /// is unknown and the fit must find the full rotation. arcloud's own maps: +y.
        public var mapUp: SIMD3<Double>?
        /// The altitude accuracy (metres, at probability 0.95) assumed for readings that state none: large,
        /// as phone altitudes are often off by tens of metres.
        public var defaultAltitudeAccuracy: Double
        /// The χ² (3 degrees of freedom) below which a reading agrees with a transform:
        /// 14.16 is the 0.9973 quantile, "within 3σ".
        public var inlierChiSquare: Double
        /// How many horizontal σ (the kept readings' median) their horizontal span must
        /// reach for the heading and scale to be determined.
        public var minimumBaselineSigmas: Double
        /// RANSAC draws at most this many minimal sets, fewer once `confidence` is reached
        /// (but at least 50 unless this is lower).
        public var maxIterations: Int
        /// The probability of drawing at least one all-inlier set, which sets when RANSAC stops.
        public var confidence: Double
        /// Seed of the sample draws.
        public var seed: UInt64
        /// What the georeference says it was fitted to.
        public var source: Georeference.Source
        /// Metres per map unit when the map knows it (a metric map: 1), held instead of
        /// fitted: GPS noise would otherwise stretch the map by a percent or more. nil fits it.
        public var scale: Double? = nil
        /// The map's up as far as something other than the readings suggests it (the mean
        /// up of its cameras, which people hold upright), used only when `mapUp` is nil and
        /// the kept readings lie near a line: it then stands in for `mapUp`. Its error
        /// tilts the georeference by as much: off by 5° about the line's normal, it puts a
        /// point 40 m along the line 3.5 m too high or low (the fitted scale keeps it in
        /// place horizontally); about the line, it moves points off the line sideways.
        public var upHint: SIMD3<Double>? = nil

        public init(mapUp: SIMD3<Double>? = SIMD3(0, 1, 0), defaultAltitudeAccuracy: Double = 50,
                    inlierChiSquare: Double = 14.16, minimumBaselineSigmas: Double = 5, maxIterations: Int = 2000,
                    confidence: Double = 0.999, seed: UInt64 = 1, source: Georeference.Source = .gps) {
            self.mapUp = mapUp; self.defaultAltitudeAccuracy = defaultAltitudeAccuracy
            self.inlierChiSquare = inlierChiSquare; self.minimumBaselineSigmas = minimumBaselineSigmas
            self.maxIterations = maxIterations; self.confidence = confidence; self.seed = seed; self.source = source
        }

        /// Why these options cannot be used, or nil.
        public var problem: String? {
            if let u = mapUp, !(length(u).isFinite && length(u) > 0) { return "the map's up direction must be finite and not zero" }
            if let s = scale, !(s.isFinite && s > 0) { return "a held scale must be positive and finite" }
            if let u = upHint, !(length(u).isFinite && length(u) > 0) { return "the up hint must be finite and not zero" }
            guard GPSReading.accuracyRange.contains(defaultAltitudeAccuracy) else {
                return "defaultAltitudeAccuracy \(defaultAltitudeAccuracy) m is outside 0.001…1000000 m"
            }
            guard inlierChiSquare.isFinite, inlierChiSquare > 0 else { return "inlierChiSquare \(inlierChiSquare) must be positive" }
            guard minimumBaselineSigmas.isFinite, minimumBaselineSigmas >= 0 else {
                return "minimumBaselineSigmas \(minimumBaselineSigmas) must not be negative"
            }
            guard maxIterations >= 1 else { return "maxIterations \(maxIterations) must be at least 1" }
            guard confidence > 0, confidence < 1 else { return "confidence \(confidence) must lie strictly between 0 and 1" }
            return nil
        }
    }

    /// The georeference (`source` from the options, `residuals` over the inliers) and which
    /// correspondences it kept, one flag per correspondence given (false for unusable ones).
    public struct Result: Sendable, Hashable {
        public var georeference: Georeference
        public var isInlier: [Bool]
        /// Whether the readings lay near a line and `Options.upHint` stood in for the map's up.
        public var usedUpHint = false
    }

    /// Fits the georeference of a map to GPS readings taken at known map positions.
    ///
    /// - Throws: `SimilarityFitError`: fewer than 3 usable readings; no transform that at
    ///   least 3 agree with; kept readings spanning too little (`shortBaseline`, or
    ///   `collinear` when the map's up is unknown); options out of range.
    public static func fit(_ correspondences: [Correspondence], options: Options = Options()) throws -> Result {
        if let p = options.problem { throw SimilarityFitError.invalidOptions(p) }
        do {
            return try fitOnce(correspondences, options: options)
        } catch SimilarityFitError.collinear where options.mapUp == nil && options.upHint != nil {
            var hinted = options
            (hinted.mapUp, hinted.upHint) = (options.upHint, nil)
            var result = try fitOnce(correspondences, options: hinted)
            result.usedUpHint = true
            return result
        }
    }

    private static func fitOnce(_ correspondences: [Correspondence], options: Options) throws -> Result {
        let usable = correspondences.indices.filter { i in
            let m = correspondences[i].mapPosition
            return correspondences[i].reading.problem == nil && m.x.isFinite && m.y.isFinite && m.z.isFinite
        }
        guard usable.count >= 3 else { throw SimilarityFitError.tooFewReadings(usable: usable.count) }
        let readings = usable.map { correspondences[$0].reading }
        let σh = readings.map(\.horizontalSigma)
        let σv = readings.map { $0.verticalSigma(defaultAltitudeAccuracy: options.defaultAltitudeAccuracy) }
        let wh = σh.map { 1 / ($0 * $0) }, wv = σv.map { 1 / ($0 * $0) }

        // Provisional origin: the readings' weighted centroid (through ECEF, exact anywhere).
        var centroid = SIMD3<Double>.zero
        for (i, r) in readings.enumerated() { centroid += wh[i] * r.position.ecef }
        let origin = GeodeticPosition(ecef: centroid / wh.reduce(0, +))
        let frame = LocalTangentFrame(origin: origin)
        let y = readings.map { frame.enu(of: $0.position) }

        // With up known, turn the map so that its up is z; the fit then only yaws about z.
        let upright = options.mapUp.map { rotation(taking: $0 / length($0), to: SIMD3(0, 0, 1)) } ?? .identity
        let x = usable.map { upright * correspondences[$0].mapPosition }
        let estimate: ([Int]) -> Similarity? = options.mapUp == nil
            ? { Similarity.spatial(x, y, horizontal: wh, vertical: wv, points: $0, scale: options.scale) }
            : { Similarity.yawOnly(x, y, horizontal: wh, vertical: wv, points: $0, scale: options.scale) }
        let sampleSize = options.mapUp == nil ? 3 : 2

        func χ2(_ m: Similarity, _ i: Int) -> Double {
            let r = y[i] - m.apply(x[i])
            return (r.x * r.x + r.y * r.y) * wh[i] + r.z * r.z * wv[i]
        }
        func inliers(_ m: Similarity) -> [Int] { x.indices.filter { χ2(m, $0) < options.inlierChiSquare } }

        guard var model = ransac(count: x.count, sampleSize: sampleSize, options: options, estimate: estimate, χ2: χ2) else {
            // Every minimal set was degenerate: the map positions coincide (collinear, with up
            // unknown), so under any transform they span nothing.
            let needed = options.minimumBaselineSigmas * Statistics.median(σh)!
            throw options.mapUp == nil ? SimilarityFitError.collinear(offset: 0, needed: needed)
                : SimilarityFitError.shortBaseline(baseline: 0, needed: needed)
        }
        // Refit to the inliers until they stop changing (bounded: the sets may cycle).
        var kept = inliers(model)
        for _ in 0..<20 {
            guard kept.count >= 3, let refit = estimate(kept) else { break }
            model = refit
            let next = inliers(model)
            if next == kept { break }
            kept = next
        }
        guard kept.count >= 3, let final = estimate(kept) else { throw SimilarityFitError.noConsensus(inliers: kept.count) }
        model = final

        try checkSpan(kept.map { model.apply(x[$0]) }, sigma: Statistics.median(kept.map { σh[$0] })!,
                      options: options)

        var horizontal = 0.0, vertical = 0.0
        for i in kept {
            let r = y[i] - model.apply(x[i])
            horizontal += r.x * r.x + r.y * r.y; vertical += r.z * r.z
        }
        let n = Double(kept.count)
        let fitted = kept.map { model.apply(x[$0]) }
        let mean = fitted.reduce(.zero, +) / n
        let spread = (fitted.map { p in let d = p - mean; return d.x * d.x + d.y * d.y }.reduce(0, +) / n).squareRoot()
        let georeference = Georeference(
            origin: origin, scale: model.scale, rotation: Quaternion(model.rotation * upright),
            translation: model.translation, source: options.source,
            residuals: .init(horizontalRMS: (horizontal / n).squareRoot(), verticalRMS: (vertical / n).squareRoot(),
                             inliers: kept.count, readings: usable.count, centroid: mean, spread: spread))
        var isInlier = [Bool](repeating: false, count: correspondences.count)
        for i in kept { isInlier[usable[i]] = true }
        return Result(georeference: georeference, isInlier: isInlier)
    }

    /// The transform of least MSAC cost over random minimal sets; nil when no set gave one.
    private static func ransac(count: Int, sampleSize: Int, options: Options, estimate: ([Int]) -> Similarity?,
                               χ2: (Similarity, Int) -> Double) -> Similarity? {
        var rng = SplitMix64(seed: options.seed)
        var best: (cost: Double, model: Similarity)?
        var limit = options.maxIterations
        let floor = min(50, options.maxIterations)
        var iteration = 0
        while iteration < max(limit, floor) {
            iteration += 1
            var sample: [Int] = []
            while sample.count < sampleSize {
                let i = Int(rng.next() % UInt64(count))
                if !sample.contains(i) { sample.append(i) }
            }
            guard let model = estimate(sample) else { continue }
            var cost = 0.0, agreeing = 0
            for i in 0..<count {
                let c = χ2(model, i)
                if c < options.inlierChiSquare { agreeing += 1 }
                cost += min(c, options.inlierChiSquare)
            }
            guard best == nil || cost < best!.cost else { continue }
            best = (cost, model)
            // Draws needed to meet an all-inlier set with `confidence` at this inlier ratio.
            let allInliers = pow(Double(agreeing) / Double(count), Double(sampleSize))
            if allInliers >= 1 {
                limit = 0
            } else if allInliers > 0 {
                let needed = log(1 - options.confidence) / log(1 - allInliers)
                limit = min(options.maxIterations, Int(min(needed.rounded(.up), Double(Int.max / 2))))
            }
        }
        return best?.model
    }

    /// Throws unless the kept readings' fitted positions (ENU metres) span enough of their
    /// noise: horizontally always, and off a line as well when the map's up is unknown.
    private static func checkSpan(_ p: [SIMD3<Double>], sigma: Double, options: Options) throws {
        let needed = options.minimumBaselineSigmas * sigma
        let horizontal = p.map { SIMD3($0.x, $0.y, 0) }
        // Two sweeps (the point farthest from the centroid, then the one farthest from it)
        // find the diameter or at least half of it: linear time, and it errs on refusing.
        let centroid = horizontal.reduce(.zero, +) / Double(horizontal.count)
        let a = horizontal.max(by: { length($0 - centroid) < length($1 - centroid) })!
        let b = horizontal.max(by: { length($0 - a) < length($1 - a) })!
        let baseline = length(b - a)
        guard baseline >= needed else { throw SimilarityFitError.shortBaseline(baseline: baseline, needed: needed) }
        guard options.mapUp == nil else { return }
        let ends = (p[horizontal.firstIndex(of: a)!], p[horizontal.firstIndex(of: b)!])
        let span = length(ends.1 - ends.0)
        let direction = span > 0 ? (ends.1 - ends.0) / span : .zero
        let offset = p.map { q -> Double in
            let d = q - ends.0
            return length(d - dot(d, direction) * direction)
        }.max()!
        guard offset >= needed else { throw SimilarityFitError.collinear(offset: offset, needed: needed) }
    }

    /// The smallest rotation taking unit vector `a` to unit vector `b` (a half turn about x
    /// or y when they are opposite).
    static func rotation(taking a: SIMD3<Double>, to b: SIMD3<Double>) -> Matrix3 {
        let axis = cross(a, b), c = dot(a, b)
        if length(axis) < 1e-12 {
            if c > 0 { return .identity }
            let perpendicular = abs(a.x) < 0.9 ? SIMD3<Double>(1, 0, 0) : SIMD3(0, 1, 0)
            return Quaternion(axis: cross(a, perpendicular), angle: .pi).matrix
        }
        return Quaternion(axis: axis, angle: atan2(length(axis), c)).matrix
    }
}
