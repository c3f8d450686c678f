/// How `VPSServer` listens and what it tolerates.
public struct VPSServerConfiguration: Sendable {
    /// Address to bind: an IPv4 or IPv6 literal, or `localhost`.
    public var host: String
    /// Port to bind; 0 picks a free ephemeral port (read it back from `VPSServer.port`).
    public var port: UInt16
    /// Worker threads, each running its own event loop; a localization occupies one.
    public var threads: Int
    /// Open connections beyond this are refused at accept.
    public var maxConnections: Int
    /// A connection idle this long (no bytes either way) is closed: stalled clients.
    public var connectionTimeoutSeconds: Int
    /// Request bodies larger than this get 413, decided from `Content-Length` when sent
    /// and while reading otherwise.
    public var maxBodyBytes: Int
    /// How long `stop()` waits for in-flight requests before closing anyway.
    public var shutdownGracePeriodSeconds: Double

    public init(host: String = "127.0.0.1", port: UInt16 = 0,
                threads: Int = VPSServerConfiguration.defaultThreads, maxConnections: Int = 256,
                connectionTimeoutSeconds: Int = 15, maxBodyBytes: Int = 16 << 20,
                shutdownGracePeriodSeconds: Double = 10) {
        self.host = host; self.port = port; self.threads = threads; self.maxConnections = maxConnections
        self.connectionTimeoutSeconds = connectionTimeoutSeconds; self.maxBodyBytes = maxBodyBytes
        self.shutdownGracePeriodSeconds = shutdownGracePeriodSeconds
    }

    /// Twice the cores, at least 4: localizations use every core while a few threads stay
    /// free for cheap requests (health, maps) that land on other threads.
    public static var defaultThreads: Int {
        max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
    }
}

import Foundation
