/// Eigen-decomposition of small symmetric matrices by cyclic Jacobi rotations: slow in
/// theory, exact to round-off and unconditionally convergent, which is what a 4×4 or a
/// 6×6 needs.
public enum SymmetricEigen {
    /// The eigenvalues of the symmetric n×n matrix `m`, largest first, and the unit
    /// eigenvector of each (`vectors[i]` belongs to `values[i]`).
    public static func decompose(_ m: [[Double]]) -> (values: [Double], vectors: [[Double]]) {
        let n = m.count
        var a = m
        var v = (0..<n).map { i in (0..<n).map { $0 == i ? 1.0 : 0.0 } }
        let size = a.flatMap { $0 }.reduce(0) { $0 + $1 * $1 }
        for _ in 0..<64 {
            var off = 0.0
            for p in 0..<n { for q in (p + 1)..<n { off += a[p][q] * a[p][q] } }
            if off <= 1e-32 * size || off == 0 { break }
            for p in 0..<n {
                for q in (p + 1)..<n where a[p][q] != 0 {
                    // The rotation in the (p, q) plane that zeroes a[p][q] (Numerical Recipes §11.1).
                    let θ = (a[q][q] - a[p][p]) / (2 * a[p][q])
                    let t = (θ >= 0 ? 1.0 : -1.0) / (abs(θ) + (θ * θ + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot(), s = t * c
                    for k in 0..<n {
                        let akp = a[k][p], akq = a[k][q]
                        a[k][p] = c * akp - s * akq; a[k][q] = s * akp + c * akq
                    }
                    for k in 0..<n {
                        let apk = a[p][k], aqk = a[q][k]
                        a[p][k] = c * apk - s * aqk; a[q][k] = s * apk + c * aqk
                    }
                    for k in 0..<n {
                        let vkp = v[k][p], vkq = v[k][q]
                        v[k][p] = c * vkp - s * vkq; v[k][q] = s * vkp + c * vkq
                    }
                }
            }
        }
        let order = (0..<n).sorted { a[$0][$0] > a[$1][$1] }
        return (order.map { a[$0][$0] }, order.map { j in (0..<n).map { v[$0][j] } })
    }

    /// The unit eigenvector of the largest eigenvalue of the symmetric matrix `m` (n×n).
    public static func largest(_ m: [[Double]]) -> [Double] { decompose(m).vectors[0] }
}
