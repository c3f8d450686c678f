import Foundation
import Testing
import Vision
import Baselines
import TestSupport

/// Repeated calls must not grow the process: the C++ side owns nothing past a call except
/// the extractor's reusable buffers, which stop growing after the first frame.
///
/// RSS is per process and other suites run in parallel in this one, so the loop runs in a
/// child copy of this test binary that executes only `childLoop` and reports its RSS.
/// Under AddressSanitizer (scripts/sanitize.sh asan) RSS grows by the quarantine of freed
/// blocks (about 200 MB here for a loop that keeps nothing), so the child reports, and the
/// test bounds, the bytes the sanitizer's allocator counts as allocated instead: the same
/// question (does anything stay allocated per round?) asked of the allocator directly.
@Suite struct ResourceTests {
    static let childFlag = "ARCLOUD_VISION_LEAK_CHILD"

    @Test func repeatedDecodeExtractMatchAndSolveKeepMemoryFlat() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "ResourceTests/childLoop"]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.childFlag: "1"]) { $1 }
        let pipe = Pipe()
        child.standardOutput = pipe
        child.standardError = FileHandle.nullDevice
        try child.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let lines = output.split(separator: "\n")
        let line = try #require(lines.first { $0.hasPrefix("VISION-HEAP ") } ?? lines.first { $0.hasPrefix("VISION-RSS ") },
                                "child printed no memory line:\n\(output.suffix(2000))")
        let measure = line.hasPrefix("VISION-HEAP ") ? "allocated bytes (sanitizer allocator)" : "RSS"
        let v = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        try #require(v.count == 2)
        // A leak of one decoded frame per round would be 120 × 300 kB = 36 MB.
        #expect(v[1] - v[0] < 8 << 20, "\(measure) grew by \((v[1] - v[0]) >> 10) kB over 120 rounds")
        #expect(child.terminationStatus == 0)
    }

    /// Runs only as the child of the test above (does nothing otherwise).
    @Test func childLoop() throws {
        guard ProcessInfo.processInfo.environment[Self.childFlag] == "1" else { return }
        let frame = try SyntheticImages.texture(width: 640, height: 480, seed: 5)
        let jpg = try SyntheticImages.encode(frame, as: .jpeg)
        let orb = try ORBExtractor()
        var rng = SplitMix(seed: 1)
        let scene = SyntheticScene(n: 300, outlierRatio: 0.5, noise: 1, rng: &rng)
        func round() throws {
            let img = try GrayImage(decoding: jpg)
            let f = try orb.extract(img)
            _ = try DescriptorMatcher().match(query: f.descriptors, train: f.descriptors)
            _ = try AbsolutePoseEstimator().estimate(pixels: scene.pixels, worldPoints: scene.world, camera: testCamera)
            _ = try? GrayImage(decoding: Array(jpg.prefix(jpg.count / 2)))  // error path too
            _ = try ORBExtractor(options: ORBOptions(featureCount: 50))  // create/destroy
            _ = try Triangulator().triangulatePairs(
                CameraView(pose: .identity, intrinsics: testCamera),
                CameraView(pose: .lookAt(eye: SIMD3(1, 0, 0), target: SIMD3(0, 0, 10)), intrinsics: testCamera),
                pixelsA: scene.pixels, pixelsB: scene.pixels)
        }
        for _ in 0 ..< 20 { try round() }  // warm up caches and allocator pools
        let before = (rss: residentBytes(), heap: sanitizerAllocatedBytes())
        for _ in 0 ..< 120 { try round() }
        let after = (rss: residentBytes(), heap: sanitizerAllocatedBytes())
        print("VISION-RSS \(before.rss) \(after.rss)")
        if let start = before.heap, let end = after.heap { print("VISION-HEAP \(start) \(end)") }
    }
}
