import Testing
import Geometry

@Suite struct SymmetricEigenTests {
    /// A 6×6 built from known eigenpairs (an orthonormal basis from Gram–Schmidt on fixed
    /// vectors) comes back with those values, largest first, and the same vectors up to sign.
    @Test func recoversKnownEigenpairs() {
        let raw: [[Double]] = [[1, 2, 0, 1, -1, 3], [0, 1, 4, -2, 1, 0], [2, 0, 1, 1, 1, 1],
                               [-1, 3, 0, 2, 0, 1], [1, 1, -1, 0, 2, -2], [0, -1, 2, 1, 3, 1]]
        var basis: [[Double]] = []
        for r in raw {
            var v = r
            for b in basis {
                let d = zip(v, b).reduce(0) { $0 + $1.0 * $1.1 }
                v = zip(v, b).map { $0 - d * $1 }
            }
            let n = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
            basis.append(v.map { $0 / n })
        }
        let values = [0.5, 9, 1e-4, 3, 2, 40.0]
        let m = (0..<6).map { i in (0..<6).map { j in (0..<6).reduce(0.0) { $0 + values[$1] * basis[$1][i] * basis[$1][j] } } }
        let (found, vectors) = SymmetricEigen.decompose(m)
        #expect(zip(found, values.sorted(by: >)).allSatisfy { abs($0 - $1) < 1e-9 })
        for (k, value) in found.enumerated() {
            let own = basis[values.firstIndex { abs($0 - value) < 1e-9 }!]
            let dot = zip(vectors[k], own).reduce(0) { $0 + $1.0 * $1.1 }
            #expect(abs(abs(dot) - 1) < 1e-9)
        }
        #expect(SymmetricEigen.largest(m).count == 6)
    }

    @Test func diagonalAndZeroMatrices() {
        let (values, vectors) = SymmetricEigen.decompose([[1, 0], [0, 5]])
        #expect(values == [5, 1])
        #expect(abs(vectors[0][1]) == 1)
        let zero = SymmetricEigen.decompose([[0, 0, 0], [0, 0, 0], [0, 0, 0]])
        #expect(zero.values == [0, 0, 0])
    }
}
