import Support
import Testing

/// `SpilledSort` gives back what a sort in memory gives, whatever the runs it spilled.
@Suite struct SpilledSortTests {
    @Test(arguments: [0, 1, 7, 1000, 4099])
    func givesBackTheValuesSortedWithTheirPercentilesAndSum(count: Int) {
        var rng = SplitMix64(seed: UInt64(count))
        // Ties and negative values included, in runs of 64 so that most go to disk.
        let values = (0..<count).map { _ in Double(Int(rng.next() % 500)) / 7 - 20 }
        let spilled = SpilledSort(runLength: 64)
        values.forEach(spilled.append)
        var back: [Double] = []
        spilled.forEachAscending { back.append($0) }
        #expect(back == values.sorted())
        let ps = [0.0, 1, 50, 90, 95, 99, 100]
        let figures = spilled.percentiles(ps)
        if count == 0 {
            #expect(figures == nil)
        } else {
            #expect(figures?.values == ps.map { Statistics.percentile(values, $0)! })
            #expect(figures?.ascendingSum == values.sorted().reduce(0, +))
        }
        // Read twice: the same.
        var again: [Double] = []
        spilled.forEachAscending { again.append($0) }
        #expect(again == back)
    }
}
