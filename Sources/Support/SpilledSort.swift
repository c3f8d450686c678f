import Foundation

/// Numbers taken one at a time and given back in ascending order, with at most `runLength`
/// of them in memory: exact percentiles of a series as long as a session (a latency or an
/// error per frame, 100,000 frames an hour) without an array of it.
///
/// Each `runLength` values are sorted and written to a scratch file as a run; reading merges
/// the runs (a small buffer each) with the values not yet written. When no scratch file can
/// be made or written, the values stay in memory instead: slower to run out of room, never
/// a failure of the figures.
public final class SpilledSort {
    public let runLength: Int
    private let folder: String
    private var buffer: [Double] = []
    private var runs: [(offset: UInt64, count: Int)] = []
    private var file: ScratchFile?
    private var spillFailed = false
    /// Values taken so far.
    public private(set) var count = 0

    /// Spills into a scratch file in `folder` (the temporary directory by default).
    public init(folder: String = FileManager.default.temporaryDirectory.path, runLength: Int = 1 << 13) {
        self.folder = folder; self.runLength = max(2, runLength)
    }

    public func append(_ value: Double) {
        buffer.append(value)
        count += 1
        if buffer.count >= runLength, !spillFailed { spill() }
    }

    /// Writes the buffer as one sorted run; on failure keeps everything in memory from now on.
    private func spill() {
        buffer.sort()
        do {
            if file == nil { file = try ScratchFile(in: folder, prefix: "arcloud-sort", appendBuffer: 1 << 16) }
            let offset = try file!.append(buffer.withUnsafeBytes { Array($0) })
            runs.append((offset, buffer.count))
            buffer.removeAll(keepingCapacity: true)
        } catch {
            spillFailed = true
        }
    }

    /// Calls `body` with every value taken, ascending (ties in any order). The runs are
    /// merged through a heap of their next values: a million values in 8,192-value runs is
    /// 123 runs, each value taken out in 7 comparisons.
    public func forEachAscending(_ body: (Double) -> Void) {
        buffer.sort()
        guard !runs.isEmpty, let file else { return buffer.forEach(body) }
        var cursors = runs.map { RunCursor(offset: $0.offset, remaining: $0.count) } + [RunCursor(memory: buffer)]
        var heap = MinHeap()
        for k in cursors.indices { if let v = cursors[k].current(in: file) { heap.push(v, k) } }
        while let (v, k) = heap.pop() {
            body(v)
            cursors[k].advance()
            if let next = cursors[k].current(in: file) { heap.push(next, k) }
        }
    }

    /// The runs' next values, least on top.
    private struct MinHeap {
        private var items: [(value: Double, run: Int)] = []

        mutating func push(_ value: Double, _ run: Int) {
            items.append((value, run))
            var i = items.count - 1
            while i > 0, items[i].value < items[(i - 1) / 2].value {
                items.swapAt(i, (i - 1) / 2)
                i = (i - 1) / 2
            }
        }

        mutating func pop() -> (Double, Int)? {
            guard let top = items.first else { return nil }
            let last = items.removeLast()
            if !items.isEmpty {
                items[0] = last
                var i = 0
                while true {
                    let l = 2 * i + 1, r = l + 1
                    var least = i
                    if l < items.count, items[l].value < items[least].value { least = l }
                    if r < items.count, items[r].value < items[least].value { least = r }
                    if least == i { break }
                    items.swapAt(i, least)
                    i = least
                }
            }
            return (top.value, top.run)
        }
    }

    /// The values at the `p`-th percentiles (0…100), as `Statistics.percentile(sorted:_:)`
    /// gives them, and the sum of all values added in ascending order; nil when empty.
    public func percentiles(_ ps: [Double]) -> (values: [Double], ascendingSum: Double)? {
        guard count > 0 else { return nil }
        let ranks = ps.map { Statistics.percentileRanks(count: count, $0) }
        var wanted: [Int: Double] = [:]
        for r in ranks { wanted[r.lower] = 0; wanted[r.upper] = 0 }
        var rank = 0, sum = 0.0
        forEachAscending { v in
            if wanted[rank] != nil { wanted[rank] = v }
            sum += v
            rank += 1
        }
        return (ranks.map { Statistics.interpolate(wanted[$0.lower]!, wanted[$0.upper]!, at: $0) }, sum)
    }

    /// A run being merged: its next values, a block at a time.
    private struct RunCursor {
        var offset: UInt64 = 0
        var remaining: Int
        var block: [Double] = []
        var position = 0
        var inMemory = false

        init(offset: UInt64, remaining: Int) { self.offset = offset; self.remaining = remaining }
        init(memory: [Double]) { block = memory; remaining = 0; inMemory = true }

        static let blockValues = 1024

        mutating func current(in file: ScratchFile) -> Double? {
            if position < block.count { return block[position] }
            guard remaining > 0 else { return nil }
            let n = min(remaining, Self.blockValues)
            block = [Double](repeating: 0, count: n)
            let read = try? block.withUnsafeMutableBytes { try file.read(into: $0, at: offset) }
            // The file is this process's own, unlinked: it fails to read back only on an I/O error.
            guard read == n * 8 else { fatalError("SpilledSort: cannot read back its scratch file") }
            offset += UInt64(n * 8); remaining -= n; position = 0
            return block[0]
        }

        mutating func advance() { position += 1 }
    }
}
