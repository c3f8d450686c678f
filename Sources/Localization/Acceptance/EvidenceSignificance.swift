import Foundation

/// How unlikely a pose's inliers among its tentative 2D–3D matches are by chance: an
/// a-contrario test (Moisan & Stival's AC-RANSAC; Desolneux, Moisan & Morel's number of
/// false alarms) against the null hypothesis that the pose has nothing to do with where
/// the matched keypoints are.
///
/// Under that hypothesis match *i* is an inlier when its keypoint happens to lie within its
/// radius of where the pose projects its map point. How likely that is depends on where the
/// keypoints are: matched keypoints cluster on textured parts of the image, and projections
/// that land among them find one nearby far more often than the image's area alone would
/// say. So each match's chance is measured, not assumed: the share of the *other* matches'
/// keypoints that lie within its radius of its projection (the permutation null: keypoint
/// *j* is as likely as keypoint *i* to be match *i*'s when the pose is unrelated), with one
/// uniformly placed keypoint as a prior so that a sparse frame is not judged on a handful
/// of neighbours. The number of inliers is then a sum of independent Bernoulli trials
/// (Poisson-binomial), and its tail probability, times the number of poses the search
/// could have tried, is the expected number of poses this good by chance: the NFA.
///
/// A pose is significant when that number is far below one. This replaces fixed inlier
/// counts and ratios: on a sparse real map a right pose may rest on a dozen inliers spread
/// over the image, while a wrong one may gather more on one textured patch.
struct EvidenceSignificance: Sendable, Hashable {
    /// Inlier radii tried, in level-0 pixels times each match's keypoint sigma: the tightest
    /// radius that holds the inliers tells the most (the test counts every radius tried).
    var radii: [Double] = [1, 2, 4]
    /// Tails up to this many successes are computed exactly; beyond, by the Chernoff bound
    /// (an upper bound, so the verdict only errs towards rejection), which keeps the cost
    /// O(n) where the evidence is overwhelming anyway.
    var exactTailLimit = 48

    /// The outcome of the test.
    struct Result: Sendable, Hashable {
        /// log₁₀ of the number of false alarms: the expected number of poses that would
        /// explain this many matches by chance. −∞ is clamped to −300.
        var log10NFA: Double
        /// Inliers at the radius that gave the least NFA.
        var inliers: Int
        /// That radius, level-0 pixels per unit sigma.
        var radius: Double
        /// Mean chance of a match being an inlier by chance at that radius.
        var background: Double
        /// Each match's chance at that radius, and the tests counted (log₁₀).
        var chances: [Double] = []
        var log10Tests = 0.0
    }

    /// Tests `projections[i]` (nil: behind the camera) against `keypoints[i]`.
    /// - Parameters:
    ///   - sigmas: each keypoint's position noise relative to level 0 (radii scale with it).
    ///   - imageSize: width and height of the image, pixels (the uniform prior, the cells).
    ///   - log10Tests: log₁₀ of the number of poses the search could have produced from
    ///     these matches (see `log10Hypotheses`).
    ///   - sampleSize: matches a minimal sample holds; they fit their own pose by
    ///     construction and are not counted as evidence.
    ///   - grid: `keypoints` already bucketed with cells of at least the largest radius
    ///     times the largest sigma (built here when nil).
    ///   - radii: the radii to try (default `self.radii`); the test counts every one tried.
    func evaluate(keypoints: [SIMD2<Double>], sigmas: [Double], projections: [SIMD2<Double>?],
                  grid prebuilt: KeypointGrid? = nil, imageSize: SIMD2<Double>, log10Tests: Double, sampleSize: Int, radii: [Double]? = nil) -> Result {
        let imageArea = imageSize.x * imageSize.y
        let n = keypoints.count
        precondition(sigmas.count == n && projections.count == n)
        let radii = radii ?? self.radii
        let log10Radii = log10(Double(max(radii.count, 1)))
        var best = Result(log10NFA: .infinity, inliers: 0, radius: radii.last ?? 0, background: 0)
        guard n > sampleSize, let largest = radii.max(), largest > 0 else { return best }
        let grid = prebuilt ?? KeypointGrid(keypoints, cell: largest * (sigmas.max() ?? 1))
        // One pass over the grid: for each match, how many other keypoints lie within each
        // radius of its projection, and whether its own does.
        let m = radii.count
        var nearby = [Int](repeating: 0, count: n * m)
        var within = [Bool](repeating: false, count: n * m)
        for i in 0..<n {
            guard let p = projections[i] else { continue }
            let d = p - keypoints[i], own = (d * d).sum()
            let r2 = radii.map { $0 * sigmas[i] * $0 * sigmas[i] }
            grid.forEach(within: largest * sigmas[i], of: p) { d2 in
                for j in 0..<m where d2 <= r2[j] { nearby[i * m + j] += 1 }
            }
            for j in 0..<m where own <= r2[j] { within[i * m + j] = true; nearby[i * m + j] -= 1 }
        }
        var chances = [Double](repeating: 0, count: n)
        for (j, radius) in radii.enumerated() {
            var inliers = 0
            for i in 0..<n {
                guard projections[i] != nil else { chances[i] = 0; continue }
                if within[i * m + j] { inliers += 1 }
                let r = radius * sigmas[i]
                let uniform = min(1, Double.pi * r * r / imageArea)
                chances[i] = min(1, (Double(nearby[i * m + j]) + uniform) / Double(n))
            }
            let k = inliers - sampleSize
            guard k > 0 else { continue }
            let nfa = max(-300, log10Tests + log10Radii + log10Tail(chances, atLeast: k))
            if nfa < best.log10NFA {
                best = Result(log10NFA: nfa, inliers: inliers, radius: radius,
                              background: chances.reduce(0, +) / Double(n), chances: chances,
                              log10Tests: log10Tests + log10Radii)
            }
        }
        return best
    }

    /// log₁₀ of how many poses a robust search could produce from `matches` tentative
    /// matches with minimal samples of `sampleSize` matches, each giving up to
    /// `solutionsPerSample` poses, over `searches` independent searches.
    static func log10Hypotheses(matches: Int, sampleSize: Int, solutionsPerSample: Int, searches: Int = 1) -> Double {
        guard matches >= sampleSize else { return 0 }
        var l = log10(Double(max(solutionsPerSample, 1)) * Double(max(searches, 1)))
        for j in 0..<sampleSize { l += log10(Double(matches - j) / Double(j + 1)) }
        return l
    }

    /// The fewest inliers (beyond the sample) whose NFA under `result`'s chances would be at
    /// most `log10NFA`, or nil when no count reaches it.
    func inliersNeeded(for log10NFA: Double, _ result: Result) -> Int? {
        var lo = 1, hi = result.chances.count
        guard hi >= 1, result.log10Tests + log10Tail(result.chances, atLeast: hi) <= log10NFA else { return nil }
        while lo < hi {  // the tail falls as k grows
            let mid = (lo + hi) / 2
            if result.log10Tests + log10Tail(result.chances, atLeast: mid) <= log10NFA { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// log₁₀ P(X ≥ k) for X a sum of independent Bernoulli(pᵢ): exact up to
    /// `exactTailLimit`, the Chernoff bound beyond.
    func log10Tail(_ p: [Double], atLeast k: Int) -> Double {
        k <= exactTailLimit ? Self.exactLog10Tail(p, atLeast: k) : Self.chernoffLog10Tail(p, atLeast: k)
    }

    /// The Chernoff bound on log₁₀ P(X ≥ k): min over t > 0 of Σ log(1 − pᵢ + pᵢeᵗ) − tk,
    /// a convex function of t whose derivative, the mean of X tilted by t less k, rises
    /// from below 0 to the number of trials that can succeed less k. Its root is bracketed
    /// and found by Newton's method kept inside the bracket by bisection: the minimum
    /// itself, not an iterate short of it (whose bound may say nothing).
    static func chernoffLog10Tail(_ p: [Double], atLeast k: Int) -> Double {
        let mean = p.reduce(0, +)
        guard Double(k) > mean else { return 0 }
        let possible = p.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
        guard possible >= k else { return -.infinity }
        // The mean and variance of X tilted by t.
        // e^−t and e^t once per t, not once per trial: the same values, a tenth of the work.
        func tilted(_ t: Double) -> (mean: Double, variance: Double) {
            var m = 0.0, v = 0.0
            let decay = exp(-t)
            for pi in p where pi > 0 {
                let q = pi >= 1 ? 1 : 1 / (1 + (1 - pi) / pi * decay)
                m += q; v += q * (1 - q)
            }
            return (m, v)
        }
        // Exactly k trials can all succeed: the bound's infimum is at t → ∞, the product of
        // their chances.
        if possible == k {
            return p.reduce(0) { $0 + ($1 > 0 ? log10(min($1, 1)) : 0) }
        }
        var lo = 0.0, hi = max(1, log(Double(k) / max(mean, 1e-300)))
        while tilted(hi).mean < Double(k), hi < 1e4 { lo = hi; hi *= 2 }
        var t = 0.5 * (lo + hi)
        for _ in 0..<100 {
            let (m, v) = tilted(t)
            if m < Double(k) { lo = t } else { hi = t }
            let newton = v > 0 ? t - (m - Double(k)) / v : .nan
            let next = newton > lo && newton < hi ? newton : 0.5 * (lo + hi)
            if abs(next - t) <= 1e-12 * max(1, t) || hi - lo <= 1e-12 * max(1, t) { t = next; break }
            t = next
        }
        var logMGF = 0.0
        let growth = exp(t)
        for pi in p where pi > 0 { logMGF += log(1 - pi + pi * growth) }
        return min(0, (logMGF - t * Double(k)) / log(10))
    }

    /// log₁₀ P(X ≥ k) for X a sum of independent Bernoulli(pᵢ) (Poisson-binomial), by the
    /// textbook recurrence over the trials with the mass at k and above kept in one cell.
    static func exactLog10Tail(_ p: [Double], atLeast k: Int) -> Double {
        guard k > 0 else { return 0 }
        guard p.count >= k else { return -.infinity }
        var dist = [Double](repeating: 0, count: k + 1)
        dist[0] = 1
        var scale = 0.0  // log₁₀ of a factor taken out to keep the cells from underflowing
        var trials = 0
        for pi in p {
            if pi <= 0 { continue }
            let qi = 1 - pi
            dist[k] += dist[k - 1] * pi
            var j = k - 1
            while j > 0 { dist[j] = dist[j] * qi + dist[j - 1] * pi; j -= 1 }
            dist[0] *= qi
            trials += 1
            guard trials % 16 == 0 else { continue }
            let m = dist.max() ?? 0
            if m > 0, m < 1e-200 {
                for j in 0...k { dist[j] /= m }
                scale += log10(m)
            }
        }
        return dist[k] > 0 ? log10(dist[k]) + scale : -.infinity
    }
}

/// Keypoints bucketed on a square grid, to find those near a point in constant time.
struct KeypointGrid: Sendable {
    let cell: Double
    let columns: Int, rows: Int
    let origin: SIMD2<Double>
    var buckets: [[SIMD2<Double>]]

    init(_ points: [SIMD2<Double>], cell: Double) {
        self.cell = max(cell, 1)
        let lo = points.reduce(SIMD2(repeating: Double.infinity)) { pointwiseMin($0, $1) }
        let hi = points.reduce(SIMD2(repeating: -Double.infinity)) { pointwiseMax($0, $1) }
        origin = points.isEmpty ? .zero : lo
        let span = points.isEmpty ? .zero : hi - lo
        columns = max(1, min(4096, Int(span.x / self.cell) + 1))
        rows = max(1, min(4096, Int(span.y / self.cell) + 1))
        buckets = Array(repeating: [], count: columns * rows)
        for p in points { buckets[index(p)].append(p) }
    }

    private func clampedCell(_ v: Double, _ count: Int) -> Int { max(0, min(count - 1, Int(floor(v / cell)))) }
    private func index(_ p: SIMD2<Double>) -> Int {
        clampedCell(p.y - origin.y, rows) * columns + clampedCell(p.x - origin.x, columns)
    }

    /// Calls `body` with the squared distance of every point within `r` (at most `cell`) of `p`.
    func forEach(within r: Double, of p: SIMD2<Double>, _ body: (Double) -> Void) {
        let q = p - origin
        // Far outside the grid (or not finite): no keypoint is near, and Int() of it could trap.
        guard q.x > -cell, q.y > -cell, q.x < Double(columns + 1) * cell, q.y < Double(rows + 1) * cell else { return }
        let cx = Int(floor(q.x / cell)), cy = Int(floor(q.y / cell))
        let r2 = r * r
        let y0 = max(0, cy - 1), y1 = min(rows - 1, cy + 1), x0 = max(0, cx - 1), x1 = min(columns - 1, cx + 1)
        guard y0 <= y1, x0 <= x1 else { return }
        for y in y0...y1 {
            for x in x0...x1 {
                for k in buckets[y * columns + x] {
                    let d = k - p
                    let d2 = (d * d).sum()
                    if d2 <= r2 { body(d2) }
                }
            }
        }
    }
}
