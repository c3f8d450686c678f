import Foundation
import VPSModel
import VPSClient

/// The `--server` side of `arcloud localize`: checks the service, token and map before
/// the batch, and reports retries and failures after it.
enum LocalizeOverService {
    /// Connects to the service and checks that the token may use map `mapId`: a wrong URL,
    /// token or map id stops here with one clear message, not once per frame.
    static func connect(server: String, token: String?, mapId: String) async throws
        -> (localizer: ServiceFrameLocalizer, mapName: String) {
        guard let token = token ?? ProcessInfo.processInfo.environment["ARCLOUD_TOKEN"], !token.isEmpty else {
            throw UsageError("--server needs --token <token> (or ARCLOUD_TOKEN in the environment)")
        }
        let client: VPSClient
        do { client = try VPSClient(baseURL: server, token: token) } catch {
            throw UsageError("--server: \(error)")
        }
        let maps: [MapSummary]
        do { maps = try await client.maps() } catch {
            throw CommandFailure("cannot list the maps of \(client.baseURL): \(error)")
        }
        guard let map = maps.first(where: { $0.id == mapId }) else {
            let known = maps.map(\.id).joined(separator: ", ")
            throw CommandFailure("\(client.baseURL) serves no map '\(mapId)' to this token (it serves: \(known.isEmpty ? "none" : known))")
        }
        return (ServiceFrameLocalizer(client: client, mapId: mapId), map.name)
    }

    /// Prints what the service side did; exit status 1 when any frame failed for good.
    static func finish(_ service: ServiceFrameLocalizer, frames: Int) -> Int32 {
        let versions = service.mapVersions.withLock { $0.sorted() }
        var line = "service: \(service.retries.load(ordering: .relaxed)) retries"
        if !versions.isEmpty { line += "; map version \(versions.map { String($0.prefix(12)) }.joined(separator: ", "))" }
        if versions.count > 1 { line += " (the map changed during the run)" }
        print(line)
        let failed = service.failedFrames.load(ordering: .relaxed)
        guard failed == 0 else {
            FileHandle.standardError.write(Data(("arcloud: localize: \(failed) of \(frames) frames failed at the service; first: "
                                                 + (service.firstFailureMessage ?? "?") + "\n").utf8))
            return 1
        }
        return 0
    }
}
