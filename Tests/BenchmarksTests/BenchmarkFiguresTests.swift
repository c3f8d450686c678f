import Foundation
import Testing
import Benchmarks
import SceneSynthesis
import Support

/// The benchmarks' own arithmetic and parsing, without running one.
@Suite struct BenchmarkFiguresTests {
    @Test func scaleSizesParseCountsAndBuildingsAndNameTheOptionWhenRefused() throws {
        let sizes = try ScaleSize.parse("30k, 2x3x6")
        #expect(sizes.map(\.label) == ["30k", "2x3x6"])
        #expect(sizes[1].building == BuildingSize(floors: 2, wings: 3, rooms: 6) && sizes[1].building.shape == "2x3x6")
        #expect(sizes[1].building.arguments == ["--floors", "2", "--wings", "3", "--rooms", "6"])
        // 30k: the one-wing building whose estimate comes nearest.
        #expect(sizes[0].building.floors == 1 && sizes[0].building.wings == 1)
        func refusal(_ text: String) -> String? {
            do { _ = try ScaleSize.parse(text); return nil } catch { return error.description }
        }
        #expect(refusal("30k,") == "option '--sizes' needs a comma-separated list, got '30k,'")
        #expect(refusal("foo") == "option '--sizes': 'foo' is neither a point count (30k, 1M) nor a building FxWxR")
        #expect(refusal("0x1x1")?.hasPrefix("option '--sizes': '0x1x1' is not a building FxWxR (") == true)
    }

    @Test func featureCellsCountTheOccupiedSquaresOfAnEightBySixGrid() {
        #expect(ExtractorTally.occupiedCells([]) == 0)
        #expect(ExtractorTally.occupiedCells([SIMD2(1, 1), SIMD2(79, 79), SIMD2(81, 1)]) == 2)
        // Points off the frame count in the border cells.
        #expect(ExtractorTally.occupiedCells([SIMD2(-5, -5), SIMD2(10_000, 10_000)]) == 2)
        var tally = ExtractorTally()
        tally.add(milliseconds: 1, points: [SIMD2(1, 1)])
        tally.add(milliseconds: 4, points: [SIMD2(1, 1), SIMD2(100, 100), SIMD2(200, 200)])
        // Medians are Support's: the mean of the middle two on an even count.
        #expect(tally.medianMilliseconds == Statistics.median([1, 4]) && tally.medianMilliseconds == 2.5)
        #expect(tally.medianCount == 2 && tally.medianOccupiedCells == 2)
    }

    @Test func realPhotoPeersIncludeThemselvesAndAllOfThem() {
        #expect(RealPhotoPeers.all.includes(.sift) && RealPhotoPeers.orb.includes(.orb))
        #expect(!RealPhotoPeers.orb.includes(.sift) && !RealPhotoPeers.none.includes(.opencv))
    }
}
