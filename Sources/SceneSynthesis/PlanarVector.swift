/// 2D vector helpers for floor-plan geometry in (x, z); Linux has no `simd` functions.
enum PlanarVector {
    static func dot(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { (a * b).sum() }
    static func length(_ a: SIMD2<Double>) -> Double { dot(a, a).squareRoot() }
    static func normalize(_ a: SIMD2<Double>) -> SIMD2<Double> { a / length(a) }
}
