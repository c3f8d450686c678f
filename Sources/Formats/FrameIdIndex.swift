import VPSModel

/// The frames' ids seen so far, for the duplicate check, at about 16 bytes a frame rather
/// than an id string and its index each (an hour of video is 100,000 frames).
///
/// Each id is kept as its hash (this process's `Hasher`) with the index of the first frame
/// that had it. A hash seen before is confirmed by reading that frame's id again from the
/// session; an id confirmed so, or one whose hash another id took first, is then kept
/// whole, so each repeated id is read again once and a collision of hashes costs one read,
/// never a wrong answer.
struct FrameIdIndex {
    private var firstOfHash: [Int: Int32] = [:]
    /// Ids kept whole: confirmed duplicates, and ids whose hash another id has.
    private var exact: [String: Int] = [:]
    private let hash: (String) -> Int

    /// `hash` is the ids' hash: `hashValue` but in tests of collisions.
    init(hash: @escaping (String) -> Int = { $0.hashValue }) { self.hash = hash }

    /// The index of the first earlier frame with `id`, or nil when it is new (and now
    /// seen at `index`); `idOfFrame` reads an earlier frame's id from the session.
    mutating func firstIndex(of id: String, at index: Int, idOfFrame: (Int) throws -> String) rethrows -> Int? {
        if let first = exact[id] { return first }
        let hash = hash(id)
        guard let first = firstOfHash[hash].map(Int.init) else {
            firstOfHash[hash] = Int32(truncatingIfNeeded: index)
            return nil
        }
        if try idOfFrame(first) == id {
            exact[id] = first
            return first
        }
        exact[id] = index
        return nil
    }
}
