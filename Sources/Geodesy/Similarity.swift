import Foundation
import Geometry

/// A similarity transform y = s R x + t and its weighted least-squares estimators, for
/// `SimilarityFit`. Weights are per point: `horizontal` for the first two coordinates of y,
/// `vertical` for the third.
struct Similarity {
    var scale: Double
    var rotation: Matrix3
    var translation: SIMD3<Double>

    func apply(_ x: SIMD3<Double>) -> SIMD3<Double> { scale * (rotation * x) + translation }

    var isUsable: Bool {
        scale.isFinite && scale > 0 && translation.x.isFinite && translation.y.isFinite && translation.z.isFinite
            && rotation.rowMajor.allSatisfy(\.isFinite)
    }

    /// The best transform whose rotation turns about z only, with the vertical weighted
    /// apart: yaw and scale (and the horizontal translation) from the horizontal
    /// coordinates alone, in closed form; the vertical translation as the weighted mean of
    /// what the scale leaves. Nil when the points coincide horizontally.
    static func yawOnly(_ x: [SIMD3<Double>], _ y: [SIMD3<Double>], horizontal wh: [Double], vertical wv: [Double],
                        points: [Int], scale held: Double? = nil) -> Similarity? {
        var w = 0.0, cx = SIMD2<Double>.zero, cy = SIMD2<Double>.zero
        for i in points {
            w += wh[i]; cx += wh[i] * SIMD2(x[i].x, x[i].y); cy += wh[i] * SIMD2(y[i].x, y[i].y)
        }
        guard w > 0 else { return nil }
        cx /= w; cy /= w
        var sxx = 0.0, c = 0.0, d = 0.0, spread = 0.0
        for i in points {
            let a = SIMD2(x[i].x, x[i].y) - cx, b = SIMD2(y[i].x, y[i].y) - cy
            sxx += wh[i] * (a * a).sum()
            c += wh[i] * (a * b).sum()
            d += wh[i] * (a.x * b.y - a.y * b.x)
            spread = max(spread, abs(x[i].x) + abs(x[i].y))
        }
        // Points closer than round-off of their own coordinates determine no direction.
        guard sxx > w * pow(1e-9 * max(spread, .leastNormalMagnitude), 2) else { return nil }
        // The best yaw does not depend on the scale: a held scale only replaces the fitted one.
        let θ = atan2(d, c), s = held ?? (c * c + d * d).squareRoot() / sxx
        let r = Matrix3(rows: SIMD3(cos(θ), -sin(θ), 0), SIMD3(sin(θ), cos(θ), 0), SIMD3(0, 0, 1))
        let rc = r * SIMD3(cx.x, cx.y, 0)
        var wz = 0.0, tz = 0.0
        for i in points { wz += wv[i]; tz += wv[i] * (y[i].z - s * x[i].z) }
        guard wz > 0 else { return nil }
        let model = Similarity(scale: s, rotation: r, translation: SIMD3(cy.x - s * rc.x, cy.y - s * rc.y, tz / wz))
        return model.isUsable ? model : nil
    }

    /// The best transform with a free rotation: Horn's closed form (the quaternion of the
    /// largest eigenvalue, J. Opt. Soc. Am. A 4, 1987) with one weight per point, `wh`,
    /// then Gauss–Newton steps with the horizontal and vertical weighted apart. Nil when the
    /// points are collinear or coincide.
    static func spatial(_ x: [SIMD3<Double>], _ y: [SIMD3<Double>], horizontal wh: [Double], vertical wv: [Double],
                        points: [Int], scale held: Double? = nil) -> Similarity? {
        var w = 0.0, cx = SIMD3<Double>.zero, cy = SIMD3<Double>.zero
        for i in points { w += wh[i]; cx += wh[i] * x[i]; cy += wh[i] * y[i] }
        guard w > 0 else { return nil }
        cx /= w; cy /= w
        let a = points.map { x[$0] - cx }, b = points.map { y[$0] - cy }
        guard !isCollinear(a) else { return nil }
        // S[j][k] = Σ w a_j b_k.
        var s = [[Double]](repeating: [0, 0, 0], count: 3), sxx = 0.0
        for (n, i) in points.enumerated() {
            for j in 0..<3 { for k in 0..<3 { s[j][k] += wh[i] * a[n][j] * b[n][k] } }
            sxx += wh[i] * (a[n] * a[n]).sum()
        }
        let horn: [[Double]] = [
            [s[0][0] + s[1][1] + s[2][2], s[1][2] - s[2][1], s[2][0] - s[0][2], s[0][1] - s[1][0]],
            [s[1][2] - s[2][1], s[0][0] - s[1][1] - s[2][2], s[0][1] + s[1][0], s[2][0] + s[0][2]],
            [s[2][0] - s[0][2], s[0][1] + s[1][0], -s[0][0] + s[1][1] - s[2][2], s[1][2] + s[2][1]],
            [s[0][1] - s[1][0], s[2][0] + s[0][2], s[1][2] + s[2][1], -s[0][0] - s[1][1] + s[2][2]],
        ]
        let q = SymmetricEigen.largest(horn)
        let rotation = Quaternion(x: q[1], y: q[2], z: q[3], w: q[0]).normalized.matrix
        var scale = 0.0
        for n in a.indices { scale += wh[points[n]] * dot(b[n], rotation * a[n]) }
        scale /= sxx
        if let held { scale = held }
        var model = Similarity(scale: scale, rotation: rotation, translation: cy - scale * (rotation * cx))
        guard model.isUsable else { return nil }
        model.refine(x, y, horizontal: wh, vertical: wv, points: points, centre: cx, holdScale: held != nil)
        return model.isUsable ? model : nil
    }

    /// Whether centred points lie on a line through their centroid (to 10⁻⁶ of their spread).
    private static func isCollinear(_ a: [SIMD3<Double>]) -> Bool {
        guard let far = a.max(by: { length($0) < length($1) }), length(far) > 0 else { return true }
        let direction = far / length(far)
        let offLine = a.map { length($0 - dot($0, direction) * direction) }.max() ?? 0
        return offLine <= 1e-6 * length(far)
    }

    /// Gauss–Newton on rotation (a left increment), log scale and translation, minimising
    /// Σ wh (Δe² + Δn²) + wv Δu², from this transform. Leaves it unchanged if a step fails.
    private mutating func refine(_ x: [SIMD3<Double>], _ y: [SIMD3<Double>], horizontal wh: [Double],
                                 vertical wv: [Double], points: [Int], centre: SIMD3<Double>, holdScale: Bool) {
        // In coordinates centred on the map points, rotation and translation decouple best.
        var t = translation + scale * (rotation * centre)
        var r = rotation, s = scale
        for _ in 0..<10 {
            var h = [[Double]](repeating: [Double](repeating: 0, count: 7), count: 7)
            var g = [Double](repeating: 0, count: 7)
            for i in points {
                let v = s * (r * (x[i] - centre))
                let res = y[i] - (v + t)
                // Rows of the 3×7 Jacobian of the prediction: ∂/∂ω = −[v]×, ∂/∂log s = v, ∂/∂t = I.
                let jac: [[Double]] = [[0, v.z, -v.y, v.x, 1, 0, 0],
                                       [-v.z, 0, v.x, v.y, 0, 1, 0],
                                       [v.y, -v.x, 0, v.z, 0, 0, 1]]
                let weights = [wh[i], wh[i], wv[i]], residual = [res.x, res.y, res.z]
                for row in 0..<3 {
                    for j in 0..<7 {
                        g[j] += weights[row] * jac[row][j] * residual[row]
                        for k in 0..<7 { h[j][k] += weights[row] * jac[row][j] * jac[row][k] }
                    }
                }
            }
            // A held scale: its row and column out of the system, its step zero.
            if holdScale {
                for j in 0..<7 { h[3][j] = 0; h[j][3] = 0 }
                h[3][3] = 1; g[3] = 0
            }
            guard let δ = solve(h, g), δ.allSatisfy(\.isFinite) else { return }
            let ω = SIMD3(δ[0], δ[1], δ[2])
            if length(ω) > 0 { r = Quaternion(Quaternion(axis: ω, angle: length(ω)).matrix * r).matrix }
            s *= exp(δ[3])
            t += SIMD3(δ[4], δ[5], δ[6])
            if δ.map(abs).max()! < 1e-12 { break }
        }
        rotation = r; scale = s; translation = t - s * (r * centre)
    }

    /// Solves the square system m·x = v by Gaussian elimination with partial pivoting; nil
    /// when singular.
    private func solve(_ m: [[Double]], _ v: [Double]) -> [Double]? {
        var a = m, b = v
        let n = b.count
        let size = a.flatMap { $0 }.map(abs).max() ?? 0
        for col in 0..<n {
            guard let pivot = (col..<n).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }),
                  abs(a[pivot][col]) > 1e-14 * size else { return nil }
            a.swapAt(col, pivot); b.swapAt(col, pivot)
            for row in (col + 1)..<n {
                let f = a[row][col] / a[col][col]
                for k in col..<n { a[row][k] -= f * a[col][k] }
                b[row] -= f * b[col]
            }
        }
        var out = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = b[row]
            for k in (row + 1)..<n { sum -= a[row][k] * out[k] }
            out[row] = sum / a[row][row]
        }
        return out
    }
}
