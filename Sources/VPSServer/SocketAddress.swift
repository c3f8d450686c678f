import Foundation

/// An IPv4 or IPv6 socket address parsed from a literal host (or `localhost`).
struct SocketAddress {
    private var v4 = sockaddr_in()
    private var v6 = sockaddr_in6()
    let isIPv6: Bool

    init(host: String, port: UInt16) throws(VPSServerError) {
        let h = host == "localhost" ? "127.0.0.1" : host
        if inet_pton(AF_INET, h, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            isIPv6 = false
        } else if inet_pton(AF_INET6, h, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            isIPv6 = true
        } else {
            throw .invalidAddress("'\(host)' is not an IPv4 or IPv6 address (or localhost)")
        }
    }

    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>) -> R) -> R {
        if isIPv6 {
            var a = v6
            return withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        var a = v4
        return withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}
