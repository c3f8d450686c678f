import Support
import VPSModel

/// A recorded run's outcomes read back from the `BatchRecorder`'s scratch files: a
/// `FrameRecord` per frame at `index × FrameRecord.size` in one, its strings in the other,
/// each outcome made again when it is read (a few blocks of each file cached, so a pass in
/// frame order reads each block once). The frames the report can show among its worst keep
/// their whole outcome in memory, matches included.
final class RecordedOutcomes: @unchecked Sendable {
    let count: Int
    private let records: ScratchFile
    private let text: ScratchFile
    private let kept: [Int: FrameOutcome]
    private let caches: Locked<(records: ScratchBlockCache, text: ScratchBlockCache)>

    /// Records per block read: a pass reads about 25 KB at a time.
    static let recordsPerBlock = 64

    init(count: Int, records: ScratchFile, text: ScratchFile, kept: [Int: FrameOutcome]) {
        self.count = count; self.records = records; self.text = text; self.kept = kept
        caches = Locked((ScratchBlockCache(blockSize: Self.recordsPerBlock * FrameRecord.size), ScratchBlockCache()))
    }

    /// Outcome `i`. The files are this process's own, unlinked: they fail to read back only
    /// on an I/O error, which ends the process with its message rather than a wrong report.
    func outcome(_ i: Int) -> FrameOutcome {
        if let o = kept[i] { return o }
        return caches.withLock { c in
            do {
                let record = try c.records.withBytes(of: records, count: FrameRecord.size, at: UInt64(i * FrameRecord.size)) {
                    FrameRecord(from: $0)
                }
                return try record.outcome { ref in
                    try c.text.withBytes(of: text, count: Int(ref.length), at: ref.offset) { String(decoding: $0, as: UTF8.self) }
                }
            } catch {
                fatalError("arcloud: cannot read back the run's records: \(error)")
            }
        }
    }
}
