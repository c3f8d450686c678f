import Foundation

/// `arcloud serve` as a child process on a free loopback port, for `arcloud simulate
/// --server` tests. Stopped with SIGTERM (graceful) when the test is done.
final class SimulateServer {
    let process = Process()
    let url: String
    let tokenDatabase: URL

    /// Serves the maps in `maps` with a fresh token file in a temporary folder.
    init(maps: URL) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        tokenDatabase = scratch.appendingPathComponent("tokens.db")
        process.executableURL = ArcloudProcess.executable
        process.arguments = ["serve", "--maps", maps.path, "--db", tokenDatabase.path, "--port", "0",
                             "--threads", "2", "--access-log", scratch.appendingPathComponent("access.log").path]
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

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        let output: String
        var description: String { "arcloud serve did not report its URL; it printed: \(output)" }
    }
}
