/// The 3D points of a map as contiguous arrays (struct of arrays): what the localizer
/// reads in its inner loops, ready to hand to C without copying.
///
/// Point `i` has position `positions[3i..<3i+3]` (map frame, in the map's units), descriptor
/// `descriptors[32i..<32i+32]` (its representative ORB descriptor, the medoid of its
/// observations by Hamming distance), `observationCounts[i]` sightings, vocabulary word
/// `words[i]` and section `sections[i]` (an index into the map's sections, −1 for none).
public struct MapPoints: Sendable, Hashable {
    public static let descriptorBytes = 32

    /// x, y, z of each point, one after another.
    public private(set) var positions: [Double]
    /// 32 bytes per point, one after another.
    public private(set) var descriptors: [UInt8]
    public private(set) var observationCounts: [UInt32]
    /// Vocabulary word of each point's descriptor (all 0 when the map has no vocabulary).
    public private(set) var words: [UInt32]
    /// Section index of each point, −1 when the point belongs to no section.
    public private(set) var sections: [Int32]

    public var count: Int { observationCounts.count }
    public var isEmpty: Bool { count == 0 }

    /// Builds from parallel arrays; their lengths must agree (3, 32, 1, 1, 1 entries per point).
    public init(positions: [Double], descriptors: [UInt8], observationCounts: [UInt32], words: [UInt32],
                sections: [Int32]) {
        let n = observationCounts.count
        precondition(positions.count == 3 * n && descriptors.count == 32 * n && words.count == n
                     && sections.count == n, "MapPoints arrays disagree in length")
        self.positions = positions; self.descriptors = descriptors
        self.observationCounts = observationCounts; self.words = words; self.sections = sections
    }

    public init() { self.init(positions: [], descriptors: [], observationCounts: [], words: [], sections: []) }

    public func position(_ i: Int) -> SIMD3<Double> {
        SIMD3(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2])
    }

    public func descriptor(_ i: Int) -> ArraySlice<UInt8> { descriptors[32 * i..<32 * i + 32] }

    /// Replaces the words (after training a vocabulary).
    public mutating func setWords(_ w: [UInt32]) {
        precondition(w.count == count); words = w
    }

    /// Replaces the section indices (after a scene import).
    public mutating func setSections(_ s: [Int32]) {
        precondition(s.count == count); sections = s
    }
}
