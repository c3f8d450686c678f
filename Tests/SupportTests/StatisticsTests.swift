import Support
import Testing

/// Order statistics as numpy defines them: `percentile` interpolates ("linear"),
/// `lowerPercentile` and `higherPercentile` take the sample below or above ("lower",
/// "higher"). Expected values are numpy's for the same samples.
@Suite struct StatisticsTests {
    @Test func percentilesAgreeWithNumpysMethods() {
        let s: [Double] = [1, 2, 4, 8, 16]
        #expect(Statistics.percentile(sorted: s, 50) == 4)
        #expect(Statistics.percentile(sorted: s, 90) == 12.8)
        #expect(Statistics.median([4, 1, 3, 2]) == 2.5)
        #expect(Statistics.lowerPercentile(sorted: s, 90) == 8 && Statistics.higherPercentile(sorted: s, 90) == 16)
        // Even counts: the lower and upper medians; integers too.
        let octaves: [UInt8] = [0, 1, 2, 3]
        #expect(Statistics.lowerPercentile(sorted: octaves, 50) == 1 && Statistics.higherPercentile(sorted: octaves, 50) == 2)
        #expect(Statistics.lowerPercentile(sorted: s, 0) == 1 && Statistics.higherPercentile(sorted: s, 100) == 16)
        #expect(Statistics.lowerPercentile(sorted: [Double](), 50) == nil && Statistics.percentile([], 50) == nil)
    }
}
