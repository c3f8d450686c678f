import Foundation
import Testing
import VPS

@Suite("Map file: load speed")
struct MapLoadSpeedTests {
    /// A 100k-point map opens ready to localize (points, observations, vocabulary and its
    /// inverted index) well under a second. Debug builds of the test are slower than the
    /// release CLI, so the bound here is generous; the figure is printed.
    @Test func hundredThousandPointMapLoadsFast() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/big.vpsmap"
        let map = try makeSyntheticMap(pointCount: 100_000, keyframeCount: 300, observationsPerPoint: 4)
        try map.write(to: path)

        let clock = ContinuousClock()
        var loaded: VPSMap?
        let elapsed = try clock.measure { loaded = try VPSMap.load(from: path) }
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        print("100k-point map (\(size / 1_000_000) MB, 400k observations) loaded in \(elapsed)")
        let back = try #require(loaded)
        #expect(back.points.count == 100_000)
        #expect(back.observations.count == 400_000)
        #expect(back.wordIndex.points.count == 100_000)
        #expect(elapsed < .seconds(3))
        // To time the release CLI on the same file: ARCLOUD_KEEP_BENCH_MAP=<path> swift test
        // --filter MapLoadSpeedTests, then `arcloud map inspect <path>` prints its load time.
        if let keep = ProcessInfo.processInfo.environment["ARCLOUD_KEEP_BENCH_MAP"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(atPath: path, toPath: keep)
        }
    }
}
