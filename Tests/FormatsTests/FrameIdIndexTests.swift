import Testing
@testable import Formats

/// The duplicate check's index of ids answers as a dictionary of every id would, however
/// often the ids' hashes collide.
@Suite struct FrameIdIndexTests {
    @Test(arguments: [false, true])
    func answersAsADictionaryOfEveryIdWould(colliding: Bool) {
        // Repeats, and (with a hash of the length alone) hashes shared by different ids.
        let ids = (0..<3000).map { i in i % 7 == 0 ? "frame-\(i / 3)" : "frame-\(i)" } + ["a", "b", "a", "frame-10", "c", "b"]
        var index = colliding ? FrameIdIndex(hash: { $0.count }) : FrameIdIndex()
        var exact: [String: Int] = [:]
        var reads = 0
        for (i, id) in ids.enumerated() {
            let expected = exact[id]
            if expected == nil { exact[id] = i }
            let found = index.firstIndex(of: id, at: i) { reads += 1; return ids[$0] }
            #expect(found == expected, "\(id) at \(i)")
        }
        if !colliding { #expect(reads <= Set(ids).count, "each repeated id read again once at most") }
    }
}
