import Synchronization
import VPSClient
import VPSModel

extension ServiceFrameLocalizer {
    /// The service cannot be asked, or serves no such map to the token: one line naming
    /// the service (and the maps it does serve).
    public struct ConnectionFailure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Lists the maps `client`'s token may use and checks that `mapId` is among them, so
    /// that a wrong URL, token or map id stops before a batch with one message, not once
    /// per frame. Returns a localizer for the map (with the map's units as the service
    /// states them) and the map's name.
    public static func connect(_ client: VPSClient, mapId: String) async throws(ConnectionFailure)
        -> (localizer: ServiceFrameLocalizer, mapName: String) {
        let maps: [MapSummary]
        do { maps = try await client.maps() } catch {
            throw ConnectionFailure(description: "cannot list the maps of \(client.baseURL): \(error)")
        }
        guard let map = maps.first(where: { $0.id == mapId }) else {
            let known = maps.map(\.id).joined(separator: ", ")
            throw ConnectionFailure(description: "\(client.baseURL) serves no map '\(mapId)' to this token "
                                        + "(it serves: \(known.isEmpty ? "none" : known))")
        }
        return (ServiceFrameLocalizer(client: client, mapId: mapId, mapUnits: map.units), map.name)
    }

    /// What the service side did over a batch: `service: N retries`, the map versions the
    /// answers named (12 characters each), and whether the map changed during the run.
    public var report: String {
        let versions = mapVersions.withLock { $0.sorted() }
        var line = "service: \(retries.load(ordering: .relaxed)) retries"
        if !versions.isEmpty { line += "; map version \(versions.map { String($0.prefix(12)) }.joined(separator: ", "))" }
        if versions.count > 1 { line += " (the map changed during the run)" }
        return line
    }

    /// How many of the batch's `frames` failed for good at the service, and the first
    /// failure; nil when none did.
    public func failure(frames: Int) -> String? {
        let failed = failedFrames.load(ordering: .relaxed)
        guard failed > 0 else { return nil }
        return "\(failed) of \(frames) frames failed at the service; first: " + (firstFailureMessage ?? "?")
    }
}
