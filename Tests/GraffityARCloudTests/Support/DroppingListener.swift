#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// A TCP listener on a loopback port that reads each HTTP request and then resets the
/// connection without answering: a server that drops connections.
///
/// After `drops` connections it hands the port over: it closes its listening socket and
/// calls `recover(port)` (which starts the real server there) BEFORE resetting the last
/// connection, so the client's next attempt finds the real server, deterministically.
/// With `recover` nil it drops connections until `close()`.
final class DroppingListener: Sendable {
    let port: UInt16
    private let listenFD: Int32
    private let dropped = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)
    private let isClosed = Atomic<Bool>(false)

    var droppedConnections: Int { dropped.load(ordering: .acquiring) }

    init(drops: Int, recover: (@Sendable (UInt16) -> Void)? = nil) throws {
        // The port is handed over to a new server, so it must stay free between this socket's
        // close and that server's bind. A port from the kernel's ephemeral range (what
        // `bind` to port 0 picks) could be taken in between by any other server the
        // parallel tests start on port 0; a port below that range is never handed out.
        let below = Self.ephemeralRangeStart()
        var found: (fd: Int32, port: UInt16)?
        for _ in 0..<200 where found == nil {
            let candidate = UInt16.random(in: 20_000..<max(20_001, below))
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw POSIXError(.EIO) }
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = candidate.bigEndian
            let bound = withUnsafePointer(to: &address) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa -> Bool in
                    bind(fd, sa, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 && listen(fd, 16) == 0
                }
            }
            if bound { found = (fd, candidate) } else { Glibc.close(fd) }
        }
        guard let (fd, chosen) = found else { throw POSIXError(.EADDRINUSE) }
        listenFD = fd
        port = chosen

        Thread.detachNewThread { [self] in
            defer { finished.signal() }
            var count = 0
            while recover == nil || count < drops {
                let connection = accept(fd, nil, nil)
                guard connection >= 0 else { return }  // closed
                Self.readRequestHead(connection)
                count += 1
                if let recover, count == drops {
                    if !isClosed.exchange(true, ordering: .acquiringAndReleasing) { Glibc.close(fd) }
                    recover(port)
                }
                dropped.add(1, ordering: .releasing)
                Self.reset(connection)
            }
        }
    }

    /// Stops listening (drops nothing more) and waits for the accept thread to end.
    func close() {
        if !isClosed.exchange(true, ordering: .acquiringAndReleasing) {
            shutdown(listenFD, Int32(SHUT_RDWR))
            Glibc.close(listenFD)
        }
        finished.wait()
        finished.signal()  // later calls return at once too
    }

    /// The first port of the kernel's ephemeral range (`ip_local_port_range`), 32768 if unreadable.
    private static func ephemeralRangeStart() -> UInt16 {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.flatMap { UInt16($0) } ?? 32768
    }

    /// Reads until the end of the request headers (or EOF), so the drop happens mid-exchange.
    private static func readRequestHead(_ fd: Int32) {
        let end: [UInt8] = [13, 10, 13, 10]
        var seen: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return }
            seen += buffer[0..<n]
            if seen.count >= 4, (0...(seen.count - 4)).contains(where: { seen[$0..<($0 + 4)].elementsEqual(end) }) {
                return
            }
        }
    }

    /// Closes with RST (SO_LINGER 0): the client sees "connection reset by peer".
    private static func reset(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        Glibc.close(fd)
    }
}
