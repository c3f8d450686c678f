/// Every descriptor a map point can be matched by: one per distinct viewing direction it
/// was seen from (a point seen only from nearby views has one).
///
/// ORB descriptors change with the viewing angle; a single representative (the points'
/// medoid in `MapPoints.descriptors`) matches poorly from a view 60° away on a sparse map
/// of real photos. The candidate index matches queries against these instead and reports
/// the point behind the matched descriptor.
///
/// Entry `i` has descriptor `descriptors[32i..<32i+32]`, point `points[i]` and vocabulary
/// word `words[i]`. Entries are grouped by point (`points` never decreases) and every
/// point of the map has at least one.
public struct MapViewDescriptors: Sendable, Hashable {
    /// 32 bytes per entry, one after another.
    public private(set) var descriptors: [UInt8]
    /// The map point of each entry, in non-decreasing order.
    public private(set) var points: [UInt32]
    /// The vocabulary word of each entry (all 0 when the map has no vocabulary).
    public private(set) var words: [UInt32]

    public var count: Int { points.count }

    /// Builds from parallel arrays; their lengths must agree (32, 1, 1 entries each).
    public init(descriptors: [UInt8], points: [UInt32], words: [UInt32]) {
        precondition(descriptors.count == 32 * points.count && words.count == points.count,
                     "MapViewDescriptors arrays disagree in length")
        self.descriptors = descriptors; self.points = points; self.words = words
    }

    /// One entry per point: its representative descriptor and word (maps of format
    /// version 2 and maps assembled without per-view descriptors).
    public init(representativesOf points: MapPoints) {
        self.init(descriptors: points.descriptors, points: (0..<points.count).map { UInt32($0) }, words: points.words)
    }

    /// No entries: a map's simulated views when it has none.
    public static let none = MapViewDescriptors(descriptors: [], points: [], words: [])

    public func descriptor(_ i: Int) -> ArraySlice<UInt8> { descriptors[32 * i..<32 * i + 32] }

    /// These entries and `other`'s, still grouped by point (each point's own first).
    public func merging(_ other: MapViewDescriptors) -> MapViewDescriptors {
        guard !other.points.isEmpty else { return self }
        var d = [UInt8](), p = [UInt32](), w = [UInt32]()
        d.reserveCapacity(descriptors.count + other.descriptors.count)
        p.reserveCapacity(count + other.count); w.reserveCapacity(count + other.count)
        var i = 0, j = 0
        while i < count || j < other.count {
            // Ties take this set's entry first, so a point's own descriptors lead its group.
            if j == other.count || (i < count && points[i] <= other.points[j]) {
                d += descriptor(i); p.append(points[i]); w.append(words[i]); i += 1
            } else {
                d += other.descriptor(j); p.append(other.points[j]); w.append(other.words[j]); j += 1
            }
        }
        return MapViewDescriptors(descriptors: d, points: p, words: w)
    }

    /// Replaces the words (after training a vocabulary).
    public mutating func setWords(_ w: [UInt32]) {
        precondition(w.count == count); words = w
    }

    /// Why these entries do not fit a map of `pointCount` points and `wordCount` words, or
    /// nil. `everyPoint`: each point must have an entry (a map's own view descriptors; its
    /// simulated ones describe only some points).
    func problem(pointCount: Int, wordCount: Int, everyPoint: Bool = true) -> String? {
        var next = 0
        for p in points {
            let p = Int(p)
            guard p < pointCount else { return "a view descriptor names point \(p) of \(pointCount)" }
            if everyPoint && p > next { return "point \(next) has no view descriptor" }
            if p < next - 1 { return "view descriptors are not grouped by point" }
            next = p + 1
        }
        if everyPoint && next < pointCount { return "point \(next) has no view descriptor" }
        if let w = words.first(where: { Int($0) >= wordCount }) {
            return "a view descriptor has word \(w) but the vocabulary has \(wordCount)"
        }
        return nil
    }
}
