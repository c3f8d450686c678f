import Foundation
import Testing
import Vision

@Suite struct ORBExtractorTests {
    let frame = try! SyntheticImages.texture(width: 640, height: 480, seed: 42)

    @Test(arguments: [500, 1000, 2000])
    func givesTheRequestedCountSpreadOverTheImage(count: Int) throws {
        let orb = try ORBExtractor(options: ORBOptions(featureCount: count))
        let f = try orb.extract(frame)
        #expect(f.count <= count)
        #expect(f.count >= count * 95 / 100, "got \(f.count) of \(count)")
        #expect(f.descriptors.count == f.count * 32)
        // Coverage: an 8x6 grid of 80-px cells; no cell hogs the features.
        var cells = [Int](repeating: 0, count: 48)
        for k in f.keypoints {
            #expect(k.x >= 0 && k.y >= 0 && k.x < 640 && k.y < 480)
            cells[min(5, Int(k.y) / 80) * 8 + min(7, Int(k.x) / 80)] += 1
        }
        // The quadtree spreads each level; across levels at most a couple of cells stay
        // empty at low counts, none from 1000 features on.
        let empty = cells.filter { $0 == 0 }.count
        #expect(empty <= (count < 1000 ? 2 : 0), "count \(count): \(cells)")
        #expect(cells.max()! <= 4 * f.count / 48, "\(cells)")
        // Several pyramid levels contribute, with consistent sizes.
        #expect(Set(f.keypoints.map(\.octave)).count >= 6)
        for k in f.keypoints {
            #expect(k.angle >= 0 && k.angle < 360)
            #expect(abs(k.size - 31 * Float(pow(1.2, Double(k.octave)))) < 0.01)
        }
    }

    @Test func isDeterministicAndReusable() throws {
        let orb = try ORBExtractor()
        let a = try orb.extract(frame)
        let other = try SyntheticImages.texture(width: 320, height: 200, seed: 9)
        _ = try orb.extract(other)  // a different size in between reuses/reshapes buffers
        let b = try orb.extract(frame)
        #expect(a == b)
        let c = try ORBExtractor().extract(frame)
        #expect(a == c)
        var reused = FeatureSet()
        try orb.extract(frame, into: &reused)
        #expect(reused == a)
    }

    @Test func featuresOfAShiftedImageMatchTheirOriginals() throws {
        // Crop by (dx, dy): the same corners must come back with the same descriptors.
        let dx = 24, dy = 16
        var px = [UInt8]()
        for y in dy ..< 480 { px += frame.pixels[(y * 640 + dx) ..< (y * 640 + 640)] }
        let shifted = try GrayImage(width: 640 - dx, height: 480 - dy, pixels: px)
        let orb = try ORBExtractor()
        let a = try orb.extract(frame), b = try orb.extract(shifted)
        let matches = try DescriptorMatcher(ratio: 0.8, mutual: true).match(query: b.descriptors, train: a.descriptors)
        let good = matches.filter { m in
            let p = b.keypoints[m.query], q = a.keypoints[m.train]
            return abs(p.x + Float(dx) - q.x) < 3 && abs(p.y + Float(dy) - q.y) < 3
        }
        #expect(matches.count > b.count / 3)
        #expect(Double(good.count) > 0.9 * Double(matches.count), "\(good.count) of \(matches.count)")
    }

    @Test func descriptorsAreRotationInvariant() throws {
        // Rotate by 90° (exact on the pixel grid): (x, y) → (H − 1 − y, x).
        let w = frame.width, h = frame.height
        var px = [UInt8](repeating: 0, count: w * h)
        for y in 0 ..< h { for x in 0 ..< w { px[x * h + (h - 1 - y)] = frame.pixels[y * w + x] } }
        let rotated = try GrayImage(width: h, height: w, pixels: px)
        let orb = try ORBExtractor()
        let a = try orb.extract(frame), b = try orb.extract(rotated)
        let matches = try DescriptorMatcher(ratio: 0.8, mutual: true).match(query: b.descriptors, train: a.descriptors)
        let good = matches.filter { m in
            let p = b.keypoints[m.query], q = a.keypoints[m.train]
            return abs(p.x - (Float(h) - 1 - q.y)) < 4 && abs(p.y - q.x) < 4
        }
        #expect(good.count > a.count / 4, "\(good.count) good of \(matches.count) matches, \(a.count) features")
        #expect(Double(good.count) > 0.85 * Double(matches.count))
        // The orientation turns with the image.
        let turned = good.map { m -> Float in
            let d = b.keypoints[m.query].angle - a.keypoints[m.train].angle
            return (d + 720).truncatingRemainder(dividingBy: 360)
        }
        let near90 = turned.filter { abs($0 - 90) < 10 }.count
        #expect(Double(near90) > 0.8 * Double(turned.count))
    }

    @Test func flatAndTinyImagesGiveNoFeatures() throws {
        let orb = try ORBExtractor()
        let flat = try GrayImage(width: 200, height: 100, pixels: [UInt8](repeating: 128, count: 20000))
        #expect(try orb.extract(flat).isEmpty)
        let tiny = try SyntheticImages.texture(width: 20, height: 20)
        #expect(try orb.extract(tiny).isEmpty)
    }

    @Test func invalidOptionsAreRejected() {
        for o in [ORBOptions(featureCount: 0), ORBOptions(scaleFactor: 1), ORBOptions(levels: 0),
                  ORBOptions(initialFASTThreshold: 5, minimumFASTThreshold: 10), ORBOptions(cellSize: 2)] {
            #expect(throws: VisionError.self) { try ORBExtractor(options: o) }
        }
    }

    @Test func undistortionInvertsTheDistortionModel() throws {
        let cam = CameraIntrinsicsFixture.distorted
        // Distort ideal pixels with the OpenCV model, then undistort them back.
        let ideal: [SIMD2<Double>] = [SIMD2(320, 240), SIMD2(50, 60), SIMD2(600, 400), SIMD2(100, 450)]
        let distorted = ideal.map { p -> SIMD2<Double> in
            let x = (p.x - cam.cx) / cam.fx, y = (p.y - cam.cy) / cam.fy
            let (k1, k2, p1, p2, k3) = (cam.distortion[0], cam.distortion[1], cam.distortion[2], cam.distortion[3], cam.distortion[4])
            let r2 = x * x + y * y
            let radial = 1 + k1 * r2 + k2 * r2 * r2 + k3 * r2 * r2 * r2
            let xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
            let yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
            return SIMD2(xd * cam.fx + cam.cx, yd * cam.fy + cam.cy)
        }
        let back = try cam.undistort(distorted)
        for (a, b) in zip(back, ideal) { #expect(abs(a.x - b.x) < 1e-3 && abs(a.y - b.y) < 1e-3, "\(a) vs \(b)") }
        #expect(try testCamera.undistort(ideal) == ideal)
        let kp = try cam.undistort([Keypoint(x: Float(distorted[1].x), y: Float(distorted[1].y), octave: 2)])
        #expect(abs(Double(kp[0].x) - 50) < 0.01 && kp[0].octave == 2)
    }
}

import Geometry
import Baselines
import TestSupport
enum CameraIntrinsicsFixture {
    static let distorted = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240,
                                            distortion: [-0.28, 0.07, 0.001, -0.0005, 0.0])
}
