import Foundation
import VPSModel

/// `arcloud serve` as a child process on a free loopback port, for `arcloud simulate
/// --server` tests. Stopped with SIGTERM (graceful) when the test is done.
final class SimulateServer {
    let process = Process()
    let url: String
    let tokenDatabase: URL

    /// Serves the maps in `maps` with a fresh token file in a temporary folder, and
    /// `arguments` besides.
    init(maps: URL, arguments: [String] = []) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        tokenDatabase = scratch.appendingPathComponent("tokens.db")
        process.executableURL = ArcloudProcess.executable
        process.arguments = ["serve", "--maps", maps.path, "--db", tokenDatabase.path, "--port", "0",
                             "--access-log", scratch.appendingPathComponent("access.log").path] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The first line names the bound URL: "arcloud serve: listening on http://127.0.0.1:PORT (...)".
        var text = ""
        let reader = out.fileHandleForReading
        while !text.contains("\n") {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: #"http://[0-9.]+:[0-9]+"#, options: .regularExpression) else {
            process.terminate()
            throw ServerDidNotStart(output: text)
        }
        url = String(text[range])
    }

    /// A new token from `arcloud token create` on this server's token file.
    func createToken() throws -> String {
        let r = try ArcloudProcess.run(["token", "create", "--db", tokenDatabase.path, "--name", "simulate-test"])
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Has the server load map `mapId` (a map loads on its first localization) by
    /// localizing the first frame of `session` with the curl command until the answer is
    /// 200. Tests that compare or count the answers of a run call this first, so that
    /// the run measures the served map, not its cold load: under AddressSanitizer the
    /// gallery map's load alone took 18 s on a loaded 2-core machine, and the requests
    /// waiting for it outlast the default 10 s budget (503, which the client retries).
    /// A 503 here is such an answer (the load goes on in the worker); anything else fails.
    /// Runs on a thread of its own: it waits on curl for up to `timeout` seconds.
    func loadMap(_ mapId: String, token: String, session: URL, timeout: TimeInterval = 300) async throws {
        let url = self.url
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            Thread {
                done.resume(with: Result { try Self.localizeUntilServed(url: url, mapId: mapId, token: token,
                                                                        session: session, timeout: timeout) })
            }.start()
        }
    }

    private static func localizeUntilServed(url: String, mapId: String, token: String, session: URL,
                                            timeout: TimeInterval) throws {
        let recorded = try RecordedSession.load(from: session)
        let request = FileManager.default.temporaryDirectory.appendingPathComponent("warm-up-\(UUID().uuidString).json")
        try JSONEncoder().encode(LocalizeRequest(mapId: mapId, intrinsics: recorded.camera)).write(to: request)
        defer { try? FileManager.default.removeItem(at: request) }
        let image = session.appendingPathComponent(recorded.frames[0].image).path
        let by = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < by {
            let curl = try ArcloudProcess.run(
                ["curl", "--silent", "--show-error", "--max-time", "\(Int(timeout))", "--output", "/dev/null",
                 "--write-out", "%{http_code}", "--header", "Authorization: Bearer \(token)",
                 "--form", "request=@\(request.path);type=application/json", "--form", "image=@\(image)",
                 url + "/v1/localize"],
                program: URL(fileURLWithPath: "/usr/bin/env"), timeout: timeout + 30)
            last = curl.stdout + curl.stderr
            if curl.status == 0 && curl.stdout == "200" { return }
            guard curl.status == 0 && curl.stdout == "503" else { break }
            Thread.sleep(forTimeInterval: 1)
        }
        throw MapDidNotLoad(mapId: mapId, lastAnswer: last)
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }

    struct MapDidNotLoad: Error, CustomStringConvertible {
        let mapId: String
        let lastAnswer: String
        var description: String { "map '\(mapId)' was not served: the last warm-up localization answered \(lastAnswer)" }
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        let output: String
        var description: String { "arcloud serve did not report its URL; it printed: \(output)" }
    }
}
