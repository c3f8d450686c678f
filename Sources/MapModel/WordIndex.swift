/// An inverted index: for each vocabulary word, the map points whose descriptor has that
/// word, stored compactly (CSR: one offsets array, one point array).
public struct WordIndex: Sendable, Hashable {
    /// `offsets[w]..<offsets[w+1]` is the range of `points` holding word `w`.
    public let offsets: [UInt32]
    /// Point indices grouped by word, ascending within a word.
    public let points: [UInt32]

    public var wordCount: Int { offsets.count - 1 }

    /// Groups `words` (one per point) into `wordCount` buckets; words ≥ wordCount are left out.
    public init(words: [UInt32], wordCount: Int) {
        var counts = [UInt32](repeating: 0, count: wordCount + 1)
        for w in words where Int(w) < wordCount { counts[Int(w) + 1] += 1 }
        for i in 0..<wordCount { counts[i + 1] += counts[i] }
        var cursor = counts
        var pts = [UInt32](repeating: 0, count: Int(counts[wordCount]))
        for (p, w) in words.enumerated() where Int(w) < wordCount {
            pts[Int(cursor[Int(w)])] = UInt32(p)
            cursor[Int(w)] += 1
        }
        offsets = counts
        points = pts
    }

    /// The points whose descriptor has `word` (empty for unknown words).
    public func points(withWord word: UInt32) -> ArraySlice<UInt32> {
        guard Int(word) < wordCount else { return [] }
        return points[Int(offsets[Int(word)])..<Int(offsets[Int(word) + 1])]
    }
}
