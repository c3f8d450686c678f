import Foundation
import Testing
import Vision

/// ASIFT's simulated views (`AffineView`): geometry and pixels agree, and bad tilts are refused.
@Suite struct AffineViewTests {
    func length(_ v: SIMD2<Double>) -> Double { ((v * v).sum()).squareRoot() }

    /// A dark image with one bright 3×3 square centred on `p`.
    func dot(at p: SIMD2<Int>, width: Int = 200, height: Int = 150) throws -> GrayImage {
        var pixels = [UInt8](repeating: 10, count: width * height)
        for y in p.y - 1...p.y + 1 { for x in p.x - 1...p.x + 1 { pixels[y * width + x] = 250 } }
        return try GrayImage(width: width, height: height, pixels: pixels)
    }

    func brightest(_ image: GrayImage) -> SIMD2<Double> {
        // Intensity-weighted centre of the pixels above the background.
        var sum = SIMD2<Double>(0, 0), weight = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let v = Double(image.pixels[y * image.width + x]) - 10
                if v > 5 { sum += v * SIMD2(Double(x), Double(y)); weight += v }
            }
        }
        return sum / weight
    }

    @Test(arguments: AffineView.mapViews.map { [$0.tilt, $0.angleDegrees] } + [[1, 0], [1, 30], [3, 160]])
    func aDotLandsWhereTheTransformSays(_ v: [Double]) throws {
        let p = SIMD2(120, 40)
        let view = try AffineView(of: try dot(at: p), tilt: v[0], angleDegrees: v[1])
        let predicted = view.viewPixel(of: SIMD2(Double(p.x), Double(p.y)))
        let seen = brightest(view.image)
        #expect(length(seen - predicted) < 1.0, "tilt \(v[0]) angle \(v[1]): seen \(seen), predicted \(predicted)")
        // The inverse maps it back.
        #expect(length(view.originalPixel(of: predicted) - SIMD2(Double(p.x), Double(p.y))) < 1e-9)
    }

    @Test func theWholeImageFitsInTheView() throws {
        for v in AffineView.mapViews {
            let view = try AffineView(of: try dot(at: SIMD2(5, 5)), tilt: v.tilt, angleDegrees: v.angleDegrees)
            for corner in [SIMD2(0.0, 0), SIMD2(199, 0), SIMD2(0, 149), SIMD2(199, 149)] {
                let q = view.viewPixel(of: corner)
                #expect(q.x >= -0.5 && q.y >= -0.5 && q.x <= Double(view.image.width) - 0.5
                        && q.y <= Double(view.image.height) - 0.5, "\(v): corner \(corner) → \(q)")
            }
        }
    }

    @Test func tiltsOutsideTheModelAreRefused() throws {
        let image = try dot(at: SIMD2(50, 50))
        for tilt in [0.5, 9, .nan] {
            let e = #expect(throws: VisionError.self) { try AffineView(of: image, tilt: tilt, angleDegrees: 0) }
            #expect(e?.code == .invalidArgument)
        }
        let tiny = try GrayImage(width: 8, height: 8, pixels: [UInt8](repeating: 0, count: 64))
        #expect(throws: VisionError.self) { try AffineView(of: tiny, tilt: 2, angleDegrees: 0) }
    }
}
