import Baselines
import Foundation
import Testing
import Vision

@Suite struct SIFTExtractorTests {
    let frame = try! SyntheticImages.texture(width: 640, height: 480, seed: 42)

    @Test func binaryCodeMarksElementsAboveTheMedianAndTheUpperQuartile() throws {
        let ramp = (0..<128).map(Float.init)  // median 64 (the upper of the middle two), upper quartile 96
        let code = try SIFTExtractor.binarize(ramp)
        func bit(_ j: Int) -> Bool { code[j >> 3] & UInt8(1 << (j & 7)) != 0 }
        for j in 0..<128 {
            #expect(bit(j) == (j > 64), "median bit \(j)")
            #expect(bit(128 + j) == (j > 96), "quartile bit \(j)")
        }
        // Thresholds come from the descriptor itself: its norm does not matter.
        #expect(try SIFTExtractor.binarize(ramp.map { $0 * 3.5 }) == code)
        #expect(try SIFTExtractor.binarize(ramp.reversed()) != code)
        #expect(throws: VisionError.self) { try SIFTExtractor.binarize([Float](repeating: 1, count: 127)) }
    }

    @Test func keypointsCarryTheirScaleAsAPyramidLevel() throws {
        let options = ORBOptions(featureCount: 2000)
        let f = try SIFTExtractor(options: options).extract(frame)
        #expect(f.count >= 1000 && f.count <= 2000, "\(f.count)")
        #expect(f.descriptors.count == f.count * 32)
        for k in f.keypoints {
            #expect(k.x >= 0 && k.y >= 0 && k.x < 640 && k.y < 480)
            #expect(k.angle >= 0 && k.angle < 360)
            let level = Int((log(Double(k.size) / 3.2) / log(Double(options.scaleFactor))).rounded())
            #expect(k.octave == min(max(level, 0), options.levels - 1), "size \(k.size) at level \(k.octave)")
        }
        #expect(Set(f.keypoints.map(\.octave)).count >= 4)
        // Strongest first, as ORB's output: a smaller count keeps a prefix.
        #expect(zip(f.keypoints, f.keypoints.dropFirst()).allSatisfy { $0.response >= $1.response })
        let fewer = try SIFTExtractor(options: ORBOptions(featureCount: 500)).extract(frame)
        #expect(Array(fewer.keypoints) == Array(f.keypoints.prefix(fewer.count)))
    }

    @Test func isDeterministicAndReusable() throws {
        let sift = try SIFTExtractor()
        let a = try sift.extract(frame)
        _ = try sift.extract(try SyntheticImages.texture(width: 320, height: 200, seed: 9))
        #expect(try sift.extract(frame) == a)
        #expect(try SIFTExtractor().extract(frame) == a)
        #expect(try FeatureExtractor(.sift).extract(frame) == a)
        #expect(try FeatureExtractor(.orb).extract(frame) == (try ORBExtractor().extract(frame)))
    }

    /// What SIFT is for: a view seen at a slant (ASIFT's tilt 2, half the width) still
    /// matches, by Hamming distance on the binary codes, where ORB's corners and patches do
    /// not follow.
    @Test func matchesAcrossATiltBetterThanORB() throws {
        let view = try AffineView(of: frame, tilt: 2, angleDegrees: 0)
        func correctMatches(_ type: FeatureType) throws -> (correct: Int, matches: Int) {
            let e = try FeatureExtractor(type, options: ORBOptions(featureCount: 2000))
            let a = try e.extract(frame), b = try e.extract(view.image)
            let m = try DescriptorMatcher(ratio: 0.8, mutual: true).match(query: b.descriptors, train: a.descriptors)
            let correct = m.filter { m in
                let p = view.originalPixel(of: b.keypoints[m.query].position)
                let d = p - a.keypoints[m.train].position
                return (d * d).sum() < 16
            }
            return (correct.count, m.count)
        }
        let sift = try correctMatches(.sift), orb = try correctMatches(.orb)
        #expect(sift.correct > 2 * orb.correct, "SIFT \(sift), ORB \(orb)")
        #expect(Double(sift.correct) > 0.8 * Double(sift.matches), "SIFT \(sift)")
    }

    /// An image above `VC_SIFT_MAX_PIXELS` (bounded memory) is described reduced, its
    /// keypoints in its own pixels: the frame doubled (by pixel replication) gives the
    /// frame's keypoints at twice their positions.
    @Test func aLargeImageIsDescribedReducedInItsOwnPixels() throws {
        let small = try SyntheticImages.texture(width: 1200, height: 900, seed: 5)
        var px = [UInt8](repeating: 0, count: 2400 * 1800)
        for y in 0..<1800 { for x in 0..<2400 { px[y * 2400 + x] = small.pixels[(y / 2) * 1200 + x / 2] } }
        let large = try GrayImage(width: 2400, height: 1800, pixels: px)
        let sift = try SIFTExtractor(options: ORBOptions(featureCount: 2000))
        let a = try sift.extract(small), b = try sift.extract(large)
        #expect(b.count > 1000, "\(b.count)")
        #expect(b.keypoints.allSatisfy { $0.x >= -0.5 && $0.y >= -0.5 && $0.x < 2400 && $0.y < 1800 })
        let m = try DescriptorMatcher(ratio: 0.8, mutual: true).match(query: b.descriptors, train: a.descriptors)
        let aligned = m.filter { m in
            let d = b.keypoints[m.query].position / 2 - a.keypoints[m.train].position
            return (d * d).sum() < 4
        }
        #expect(Double(aligned.count) > 0.8 * Double(m.count) && aligned.count > 300, "\(aligned.count) of \(m.count)")
    }

    @Test func flatAndTinyImagesGiveNoFeatures() throws {
        let sift = try SIFTExtractor()
        #expect(try sift.extract(try GrayImage(width: 200, height: 100, pixels: [UInt8](repeating: 128, count: 20000))).isEmpty)
        #expect(try sift.extract(try SyntheticImages.texture(width: 20, height: 20)).isEmpty)
    }

    @Test func invalidOptionsAreRejected() {
        for o in [ORBOptions(featureCount: 0), ORBOptions(scaleFactor: 1), ORBOptions(levels: 0)] {
            #expect(throws: VisionError.self) { try SIFTExtractor(options: o) }
        }
    }
}
