import Foundation
import Support

/// Progress of a batch job on stderr: a redrawn bar on a terminal, a plain line every tenth of the job
/// otherwise (logs and CI stay readable).
public final class ProgressReporter: Sendable {
    private let total: Int
    private let label: String
    private let isTTY = isatty(STDERR_FILENO) == 1
    private let lastDecile = Locked(-1)

    /// Progress of `total` items (at least 1), each line or bar headed by `label`.
    public init(label: String, total: Int) { self.label = label; self.total = max(total, 1) }

    /// `done` items of the total are finished; callable from any thread.
    public func update(_ done: Int) {
        if isTTY {
            let width = 30, filled = width * done / total
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            write("\r\(label) [\(bar)] \(done)/\(total)")
            if done >= total { write("\n") }
        } else {
            let decile = 10 * done / total
            let shouldPrint = lastDecile.withLock { last -> Bool in
                guard decile > last else { return false }
                last = decile
                return true
            }
            if shouldPrint { write("\(label): \(done)/\(total) frames\n") }
        }
    }

    private func write(_ s: String) { FileHandle.standardError.write(Data(s.utf8)) }
}
