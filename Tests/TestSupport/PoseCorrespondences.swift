import Foundation
import Geometry
import Support
import Vision

/// Deterministic generator so every run sees the same synthetic data.
package typealias SplitMix = SplitMix64

extension SplitMix64 {
    /// A uniformly random rotation.
    package mutating func rotation() -> Quaternion {
        Quaternion(x: gaussian(), y: gaussian(), z: gaussian(), w: gaussian()).normalized
    }
}

package let testCamera = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240)

/// A random world → camera transform and n points visible in `testCamera`.
package struct SyntheticScene {
    package var truth: CameraFromWorld
    package var pixels: [SIMD2<Double>]
    package var world: [SIMD3<Double>]
    package var isOutlier: [Bool]

    package init(n: Int, outlierRatio: Double = 0, noise: Double = 0, rng: inout SplitMix) {
        let q = rng.rotation()
        let t = SIMD3(Double.random(in: -2 ... 2, using: &rng), Double.random(in: -2 ... 2, using: &rng),
                      Double.random(in: -2 ... 2, using: &rng))
        truth = CameraFromWorld(rotation: q.matrix, translation: t)
        let rt = truth.rotation.transposed
        pixels = []; world = []; isOutlier = []
        let outliers = Int((Double(n) * outlierRatio).rounded())
        for i in 0 ..< n {
            let u = Double.random(in: 0 ..< 640, using: &rng), v = Double.random(in: 0 ..< 480, using: &rng)
            let depth = Double.random(in: 2 ... 10, using: &rng)
            let xc = SIMD3((u - 320) / 500 * depth, (v - 240) / 500 * depth, depth)
            world.append(rt * (xc - t))
            if i < outliers {
                pixels.append(SIMD2(Double.random(in: 0 ..< 640, using: &rng), Double.random(in: 0 ..< 480, using: &rng)))
                isOutlier.append(true)
            } else {
                pixels.append(SIMD2(u + noise * rng.gaussian(), v + noise * rng.gaussian()))
                isOutlier.append(false)
            }
        }
        // Interleave outliers so sample order carries no information.
        var order = Array(0 ..< n)
        order.shuffle(using: &rng)
        pixels = order.map { pixels[$0] }
        world = order.map { world[$0] }
        isOutlier = order.map { isOutlier[$0] }
    }
}

package func rotationErrorDegrees(_ a: Matrix3, _ b: Matrix3) -> Double {
    let r = a * b.transposed
    let c = max(-1, min(1, (r.r0.x + r.r1.y + r.r2.z - 1) / 2))
    return acos(c) * 180 / .pi
}

package func maxAbsDifference(_ a: CameraFromWorld, _ b: CameraFromWorld) -> Double {
    let ra = a.rotation.rowMajor, rb = b.rotation.rowMajor
    var m = zip(ra, rb).map { abs($0 - $1) }.max()!
    m = max(m, abs(a.translation.x - b.translation.x), abs(a.translation.y - b.translation.y),
            abs(a.translation.z - b.translation.z))
    return m
}

/// Resident set size of this process in bytes, from /proc/self/statm.
package func residentBytes() -> Int {
    guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let f = s.split(separator: " ")
    return (Int(f[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Bytes this process holds allocated right now, as a sanitizer's allocator counts them
/// (`__sanitizer_get_current_allocated_bytes`), or nil when no sanitizer runtime is loaded.
/// The count drops at `free`; RSS under AddressSanitizer does not, because freed blocks wait
/// in its quarantine (256 MB by default) before they are reused.
package func sanitizerAllocatedBytes() -> Int? {
    guard let symbol = dlsym(nil, "__sanitizer_get_current_allocated_bytes") else { return nil }
    let allocated = unsafeBitCast(symbol, to: (@convention(c) () -> UInt).self)
    return Int(allocated())
}
