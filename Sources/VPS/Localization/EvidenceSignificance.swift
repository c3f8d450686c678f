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
    /// Inliers are counted per cell of a `cells` × `cells` grid over the image: the test
    /// asks how many image regions hold an inlier, not how many inliers there are. Matches on
    /// one rigid patch (a poster) stand or fall together — once a pose aligns one, it aligns
    /// its neighbours — so they are one piece of evidence for that patch, and a look-alike
    /// of it elsewhere would fit them just as well. Evidence spread over the image is what
    /// fixes a pose in the map. 0 counts every inlier on its own.
    var cells = 0
    /// Successes counted at most: beyond this the tail is taken at the cap (a larger
    /// probability, so the verdict only errs towards rejection) and the cost stays O(n·cap).
    var maxCounted = 400

    /// The outcome of the test.
    struct Result: Sendable, Hashable {
        /// log₁₀ of the number of false alarms: the expected number of poses that would
        /// explain this many matches by chance. −∞ is clamped to −300.
        var log10NFA: Double
        /// Inliers at the radius that gave the least NFA…
        var inliers: Int
        /// …and the grid cells they fall in.
        var regions = 0
        /// That radius, level-0 pixels per unit sigma.
        var radius: Double
        /// Mean chance of a match being an inlier by chance at that radius.
        var background: Double
    }

    /// Tests `projections[i]` (nil: behind the camera) against `keypoints[i]`.
    /// - Parameters:
    ///   - sigmas: each keypoint's position noise relative to level 0 (radii scale with it).
    ///   - imageSize: width and height of the image, pixels (the uniform prior, the cells).
    ///   - log10Tests: log₁₀ of the number of poses the search could have produced from
    ///     these matches (see `log10Hypotheses`).
    ///   - sampleSize: matches a minimal sample holds; they fit their own pose by
    ///     construction and are not counted as evidence.
    ///   - radii: the radii to try (default `self.radii`); the test counts every one tried.
    func evaluate(keypoints: [SIMD2<Double>], sigmas: [Double], projections: [SIMD2<Double>?],
                  imageSize: SIMD2<Double>, log10Tests: Double, sampleSize: Int, radii: [Double]? = nil) -> Result {
        let imageArea = imageSize.x * imageSize.y
        let n = keypoints.count
        precondition(sigmas.count == n && projections.count == n)
        let radii = radii ?? self.radii
        let log10Radii = log10(Double(max(radii.count, 1)))
        var best = Result(log10NFA: .infinity, inliers: 0, radius: radii.last ?? 0, background: 0)
        guard n > sampleSize, let largest = radii.max(), largest > 0 else { return best }
        let grid = KeypointGrid(keypoints, cell: largest * (sigmas.max() ?? 1))
        var chances = [Double](repeating: 0, count: n)
        // Each match's cell (by its keypoint), or all in one list when cells are off.
        let cellOf: [Int] = cells > 0 ? keypoints.map { cell($0, size: imageSize) } : Array(0..<n)
        let cellCount = cells > 0 ? cells * cells : n
        var isInlier = [Bool](repeating: false, count: n)
        for radius in radii {
            var inliers = 0
            for i in 0..<n {
                isInlier[i] = false
                guard let p = projections[i] else { chances[i] = 0; continue }
                let r = radius * sigmas[i], r2 = r * r
                let d = p - keypoints[i]
                if (d * d).sum() <= r2 { inliers += 1; isInlier[i] = true }
                let others = grid.count(within: r, of: p) - (isInlier[i] ? 1 : 0)
                let uniform = min(1, Double.pi * r2 / imageArea)
                chances[i] = min(1, (Double(others) + uniform) / Double(n))
            }
            // Per cell: an inlier there, and the chance of one (1 − Π(1 − pᵢ) over its matches).
            var miss = [Double](repeating: 1, count: cellCount)
            var hit = [Bool](repeating: false, count: cellCount)
            for i in 0..<n {
                miss[cellOf[i]] *= 1 - chances[i]
                if isInlier[i] { hit[cellOf[i]] = true }
            }
            let cellChances = miss.map { 1 - $0 }.filter { $0 > 0 }
            let regions = hit.filter { $0 }.count
            let k = regions - sampleSize
            guard k > 0 else { continue }
            let tail = Self.log10Tail(cellChances, atLeast: min(k, maxCounted))
            let nfa = max(-300, log10Tests + log10Radii + tail)
            if nfa < best.log10NFA {
                best = Result(log10NFA: nfa, inliers: inliers, regions: regions, radius: radius,
                              background: chances.reduce(0, +) / Double(n))
            }
        }
        return best
    }

    private func cell(_ p: SIMD2<Double>, size: SIMD2<Double>) -> Int {
        let x = max(0, min(cells - 1, Int((p.x / size.x * Double(cells)).rounded(.down))))
        let y = max(0, min(cells - 1, Int((p.y / size.y * Double(cells)).rounded(.down))))
        return y * cells + x
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

    /// log₁₀ P(X ≥ k) for X a sum of independent Bernoulli(pᵢ) (Poisson-binomial), by the
    /// textbook recurrence over the trials with the mass at k and above kept in one cell.
    static func log10Tail(_ p: [Double], atLeast k: Int) -> Double {
        guard k > 0 else { return 0 }
        guard p.count >= k else { return -.infinity }
        var dist = [Double](repeating: 0, count: k + 1)
        dist[0] = 1
        var scale = 0.0  // log₁₀ of a factor taken out to keep the cells from underflowing
        for pi in p {
            if pi <= 0 { continue }
            let qi = 1 - pi
            dist[k] += dist[k - 1] * pi
            var j = k - 1
            while j > 0 { dist[j] = dist[j] * qi + dist[j - 1] * pi; j -= 1 }
            dist[0] *= qi
            let m = dist.max() ?? 0
            if m > 0, m < 1e-200 {
                for j in 0...k { dist[j] /= m }
                scale += log10(m)
            }
        }
        return dist[k] > 0 ? log10(dist[k]) + scale : -.infinity
    }
}

/// Keypoints bucketed on a square grid, to count those near a point in constant time.
private struct KeypointGrid {
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

    /// Points within `r` (at most `cell`) of `p`.
    func count(within r: Double, of p: SIMD2<Double>) -> Int {
        let q = p - origin
        // Far outside the grid (or not finite): no keypoint is near, and Int() of it could trap.
        guard q.x > -cell, q.y > -cell, q.x < Double(columns + 1) * cell, q.y < Double(rows + 1) * cell else { return 0 }
        let cx = Int(floor(q.x / cell)), cy = Int(floor(q.y / cell))
        let r2 = r * r
        var n = 0
        let y0 = max(0, cy - 1), y1 = min(rows - 1, cy + 1), x0 = max(0, cx - 1), x1 = min(columns - 1, cx + 1)
        guard y0 <= y1, x0 <= x1 else { return 0 }
        for y in y0...y1 {
            for x in x0...x1 {
                for k in buckets[y * columns + x] {
                    let d = k - p
                    if (d * d).sum() <= r2 { n += 1 }
                }
            }
        }
        return n
    }
}
