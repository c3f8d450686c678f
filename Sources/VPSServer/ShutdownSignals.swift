import Dispatch
import Foundation

/// SIGINT and SIGTERM for a server process: from creation on, their default handlers are
/// ignored and each arrival is handed over by name (`SIGINT`, `SIGTERM`). Made before the
/// server says it listens, a stop sent as soon as that line is read is never lost.
public final class ShutdownSignals {
    private let names: AsyncStream<String>
    private let sources: [any DispatchSourceSignal]

    public init() {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let (names, arrived) = AsyncStream.makeStream(of: String.self)
        self.names = names
        sources = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")].map { sig, name in
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            s.setEventHandler { arrived.yield(name) }
            s.resume()
            return s
        }
    }

    /// Waits for the first signal and returns its name.
    public func next() async -> String {
        var iterator = names.makeAsyncIterator()
        return await iterator.next() ?? "signal"
    }
}
