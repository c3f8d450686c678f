/// A 3×3 matrix of doubles, row-major. Small and value-typed: Linux has no `simd` matrices.
public struct Matrix3: Sendable, Hashable, Codable {
    /// Rows, top to bottom.
    public var r0: SIMD3<Double>
    public var r1: SIMD3<Double>
    public var r2: SIMD3<Double>

    public init(rows r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) {
        self.r0 = r0; self.r1 = r1; self.r2 = r2
    }

    /// Builds from 9 values in row-major order.
    public init(rowMajor m: [Double]) {
        precondition(m.count == 9, "Matrix3 needs 9 values")
        self.init(rows: SIMD3(m[0], m[1], m[2]), SIMD3(m[3], m[4], m[5]), SIMD3(m[6], m[7], m[8]))
    }

    public static let identity = Matrix3(rows: SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))

    /// The 9 values in row-major order.
    public var rowMajor: [Double] { [r0.x, r0.y, r0.z, r1.x, r1.y, r1.z, r2.x, r2.y, r2.z] }

    public var transposed: Matrix3 {
        Matrix3(rows: SIMD3(r0.x, r1.x, r2.x), SIMD3(r0.y, r1.y, r2.y), SIMD3(r0.z, r1.z, r2.z))
    }

    public var determinant: Double {
        r0.x * (r1.y * r2.z - r1.z * r2.y) - r0.y * (r1.x * r2.z - r1.z * r2.x)
            + r0.z * (r1.x * r2.y - r1.y * r2.x)
    }

    public static func * (m: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((m.r0 * v).sum(), (m.r1 * v).sum(), (m.r2 * v).sum())
    }

    public static func * (m: Matrix3, s: Double) -> Matrix3 { Matrix3(rows: m.r0 * s, m.r1 * s, m.r2 * s) }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let bt = b.transposed
        return Matrix3(rows: SIMD3((a.r0 * bt.r0).sum(), (a.r0 * bt.r1).sum(), (a.r0 * bt.r2).sum()),
                       SIMD3((a.r1 * bt.r0).sum(), (a.r1 * bt.r1).sum(), (a.r1 * bt.r2).sum()),
                       SIMD3((a.r2 * bt.r0).sum(), (a.r2 * bt.r1).sum(), (a.r2 * bt.r2).sum()))
    }

    public static func == (a: Matrix3, b: Matrix3) -> Bool { a.rowMajor == b.rowMajor }
    public func hash(into h: inout Hasher) { h.combine(rowMajor) }

    public init(from decoder: Decoder) throws {
        let values = try [Double](from: decoder)
        guard values.count == 9 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "a 3x3 matrix needs 9 values"))
        }
        self.init(rowMajor: values)
    }
    public func encode(to encoder: Encoder) throws { try rowMajor.encode(to: encoder) }
}

@inlinable public func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
@inlinable public func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
@inlinable public func length(_ a: SIMD3<Double>) -> Double { dot(a, a).squareRoot() }
@inlinable public func normalize(_ a: SIMD3<Double>) -> SIMD3<Double> { a / length(a) }
