import Foundation
import Support
import VPSModel

/// One line of the JSON-lines access log. Never contains the bearer token (only the
/// token's name).
public struct AccessLogEntry: Sendable, Hashable, Codable {
    /// ISO 8601 UTC with milliseconds, when the response was queued (or the connection ended).
    public var time: String
    public var method: String
    /// The route template (`/v1/maps/{id}/scene`) or `unmatched`.
    public var route: String
    /// The HTTP status sent, or 0 when the connection ended without a response (timeout, abort).
    public var status: Int
    public var latencyMs: Double
    /// The map the request was about, when there was one.
    public var map: String?
    /// `localized` / `notLocalized` for localizations, the error code for failures,
    /// `timeout` / `aborted` for connections that ended early, else `ok`.
    public var outcome: String
    /// The name of the token used, when one was valid.
    public var client: String?
    public var bytesIn: Int

    public init(time: String, method: String, route: String, status: Int, latencyMs: Double, map: String?,
                outcome: String, client: String?, bytesIn: Int) {
        self.time = time; self.method = method; self.route = route; self.status = status
        self.latencyMs = latencyMs; self.map = map; self.outcome = outcome; self.client = client
        self.bytesIn = bytesIn
    }
}

extension AccessLogEntry {
    /// The entry as one JSON object with keys in a fixed, readable order (time first).
    public var jsonLine: String {
        let json = JSONLiteral.string
        var fields = ["\"time\":\(json(time))", "\"method\":\(json(method))", "\"route\":\(json(route))",
                      "\"status\":\(status)", "\"latencyMs\":\(latencyMs)"]
        if let map { fields.append("\"map\":\(json(map))") }
        fields.append("\"outcome\":\(json(outcome))")
        if let client { fields.append("\"client\":\(json(client))") }
        fields.append("\"bytesIn\":\(bytesIn)")
        return "{" + fields.joined(separator: ",") + "}"
    }
}

/// Writes access log entries as JSON lines to a sink, one whole line per write.
public final class AccessLog: Sendable {
    private let sink: Locked<(@Sendable (String) -> Void)>

    /// A log that hands each line (with its trailing newline) to `write`, one call at a time.
    public init(write: @escaping @Sendable (String) -> Void) { sink = Locked(write) }

    /// A log appended to a file descriptor (e.g. `STDOUT_FILENO` or an opened file).
    public convenience init(fileDescriptor fd: Int32) {
        self.init { line in
            let bytes = Array(line.utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { buf -> Int in
                    guard let base = buf.baseAddress else { return -1 }
                    return write(fd, base + offset, buf.count - offset)
                }
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return }                 // a broken log must not break serving
                offset += n
            }
        }
    }

    /// The access log file cannot be opened: the message names it and the system's reason.
    public struct OpenFailure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// `-`: standard output; anything else a file path, appended to (created, mode 0644,
    /// when missing).
    public convenience init(target: String) throws(OpenFailure) {
        if target == "-" { self.init(fileDescriptor: STDOUT_FILENO); return }
        let fd = open(target, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw OpenFailure(description: "cannot open the access log '\(target)': \(String(cString: strerror(errno)))")
        }
        self.init(fileDescriptor: fd)
    }

    func record(_ entry: AccessLogEntry) {
        let line = entry.jsonLine + "\n"
        sink.withLock { $0(line) }
    }

    static func timestamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }
}
