import Foundation
import GraffityARCloud
import VPSModel

extension SessionSimulation {
    /// The session or script cannot be read, or the embedded map's file is missing: one
    /// line naming the path.
    public struct SetupFailure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The session in `folder`, playing the script in the file `script` instead of its own
    /// when given (`ScriptFile`).
    public static func loadSession(_ folder: String, script: String?) throws(SetupFailure) -> RecordedSession {
        var session: RecordedSession
        do { session = try RecordedSession.load(from: URL(fileURLWithPath: folder, isDirectory: true)) } catch {
            throw SetupFailure(description: "cannot read the session in '\(folder)': \(error)")
        }
        if let script {
            do { session.script = try ScriptFile.load(from: URL(fileURLWithPath: script)) } catch {
                throw SetupFailure(description: "cannot use the script '\(script)': \(error)")
            }
        }
        return session
    }

    /// The SDK's configuration for a replay: against the map file `map` in-process, or
    /// with `server` against the map of that id (a `.vpsmap` path names its file's stem)
    /// with `token`; a VPS request every `interval` seconds of replay time; on the virtual
    /// clock with a fixed jitter seed, so runs repeat.
    public static func configuration(map: String, server: URL?, token: String?, interval: Double,
                                     clock: ReplayClock) throws(SetupFailure) -> GraffityARCloud.Configuration {
        let mapURL = URL(fileURLWithPath: map)
        let mapId = mapURL.pathExtension == "vpsmap" ? mapURL.deletingPathExtension().lastPathComponent : map
        if server == nil, !FileManager.default.fileExists(atPath: mapURL.path) {
            throw SetupFailure(description: "no map file at '\(map)'")
        }
        return GraffityARCloud.Configuration(mapId: mapId, serverURL: server, accessToken: token,
                                             embeddedMapURL: server == nil ? mapURL : nil,
                                             vpsRequestInterval: .seconds(interval), jitterSeed: clock == .virtual ? 1 : nil)
    }
}
