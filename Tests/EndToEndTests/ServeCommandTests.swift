import Foundation
import Testing

/// `arcloud token` and `arcloud serve` as an operator runs them: issue tokens, start the
/// service on a free port, call it, revoke a token, stop it with SIGTERM.
@Suite struct ServeCommandTests {
    /// A GET with the curl command, as an operator would call the service. Not URLSession:
    /// the toolchain's FoundationNetworking leaks 52 bytes per request (its
    /// `CFURLSessionCurlHostIsEqual` releases a `CURLU` with `curl_free` instead of
    /// `curl_url_cleanup`, so the URL's parts stay allocated), which fails the
    /// AddressSanitizer run, and the leak's stack ends inside libcurl (no frame pointers),
    /// so no suppression could name it without hiding libcurl leaks of our own.
    private func get(_ url: String, token: String?) throws -> (status: Int, body: String) {
        var arguments = ["curl", "--silent", "--show-error", "--max-time", "60", "--write-out", "\n%{http_code}"]
        if let token { arguments += ["--header", "Authorization: Bearer \(token)"] }
        let curl = try ArcloudProcess.run(arguments + [url], program: URL(fileURLWithPath: "/usr/bin/env"), timeout: 90)
        try #require(curl.status == 0, "curl \(url): \(curl.stderr)")
        let body = curl.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(body.last ?? "") ?? 0, body.dropLast().joined(separator: "\n"))
    }

    @Test func tokensServeAndGracefulStop() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("serve-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("maps"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("tokens.db").path

        let created = try ArcloudProcess.run(["token", "create", "--db", db, "--name", "e2e", "--expires", "1h"])
        #expect(created.status == 0, "\(created.stderr)")
        let token = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("arc_") && token.count == 47)
        #expect(created.stderr.contains("shown only this once"))
        let usage = try ArcloudProcess.run(["token", "create", "--db", db, "--name", "x", "--expires", "soon"])
        #expect(usage.status == 2)
        let listed = try ArcloudProcess.run(["token", "list", "--db", db])
        #expect(listed.stdout.contains("e2e") && listed.stdout.contains("active") && !listed.stdout.contains(token))

        let server = try RunningServe(["--maps", dir.appendingPathComponent("maps").path, "--db", db, "--port", "0"])
        let serve = server.process, out = server.out, err = server.err, firstLine = server.firstLine, url = server.url
        defer { if serve.isRunning { serve.terminate() } }

        #expect(try get(url + "/healthz", token: nil).status == 200)
        let maps = try get(url + "/v1/maps", token: token)
        #expect(maps.status == 200 && maps.body == #"{"maps":[]}"#)
        #expect(try get(url + "/v1/maps", token: nil).status == 401)

        let revoked = try ArcloudProcess.run(["token", "revoke", "--db", db, "--name", "e2e"])
        #expect(revoked.status == 0)
        #expect(try get(url + "/v1/maps", token: token).status == 401)

        serve.terminate()                                   // SIGTERM
        serve.waitUntilExit()
        #expect(serve.terminationStatus == 0)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr.contains("SIGTERM") && stderr.contains("stopped"))
        let log = String(decoding: firstLine + out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let entries = log.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(entries.count == 4)                        // one JSON line per request
        #expect(!log.contains(token))
    }

    /// `--threads` named connection threads in 0.1 and was removed when every connection got
    /// a thread of its own; scripts that pass it must still start the service, warned.
    @Test func threadsIsADeprecatedAliasOfWorkers() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("serve-threads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("maps"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = ["--maps", dir.appendingPathComponent("maps").path, "--db", dir.appendingPathComponent("tokens.db").path, "--port", "0"]

        let server = try RunningServe(base + ["--threads", "3"])
        defer { if server.process.isRunning { server.process.terminate() } }
        let metrics = try get(server.url + "/metrics", token: nil)
        #expect(metrics.body.split(separator: "\n").contains("arcloud_localization_workers 3"), "\(metrics.body)")
        server.process.terminate()
        server.process.waitUntilExit()
        let stderr = String(decoding: server.err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr.contains("'--threads' is deprecated") && stderr.contains("use '--workers'"), "\(stderr)")

        let both = try ArcloudProcess.run(["serve"] + base + ["--threads", "3", "--workers", "2"])
        #expect(both.status == 2 && both.stderr.contains("'--threads' (deprecated) and '--workers' both given"), "\(both.stderr)")
        let bad = try ArcloudProcess.run(["serve"] + base + ["--threads", "0"])
        #expect(bad.status == 2 && bad.stderr.contains("'--threads' needs a whole number in 1...256"), "\(bad.stderr)")
    }

    /// `bench serve` on the shipped map, kept small: every request answered, and each
    /// printed ratio what its own figures make.
    @Test func benchServeMeasuresEveryLevelAgainstTheRateInterleavedWithIt() async throws {
        let r = try await ArcloudProcess.runOffThread(["bench", "serve", "--maps", "Maps", "--map", "gallery",
                                                       "--dataset", "Datasets/gallery-query-walk", "--frames", "2",
                                                       "--requests", "4", "--rounds", "2", "--concurrency", "1,2,4", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        struct Output: Decodable {
            struct Run: Decodable { var concurrency: Int; var requestsPerSecond: Double; var baseline: Double; var scaling: Double
                                    var errors: Int; var localized: Int; var requests: Int; var timedRequests: Int }
            struct Round: Decodable { var singleThreadPaired: Double; var singleThreadInterleaved: [Double]; var http: [Run] }
            struct Summary: Decodable { var targetLevelsMeasured: Bool; var targetMet: Bool; var targetMetInEveryRound: Bool
                                        var levels: [Level] }
            struct Level: Decodable { var combined: Run; var worstScaling: Double; var bestScaling: Double }
            var cores: Int; var rounds: [Round]; var summary: Summary
        }
        let out = try JSONDecoder().decode(Output.self, from: Data(r.stdout.utf8))
        #expect(out.rounds.count == 2 && out.summary.levels.map(\.combined.concurrency) == [1, 2, 4])
        #expect(out.summary.levels.allSatisfy { $0.combined.errors == 0 && $0.combined.timedRequests == 8 })
        for (i, level) in out.summary.levels.enumerated() {     // the spread of the rounds' own ratios
            let scalings = out.rounds.map { $0.http[i].scaling }
            #expect(level.worstScaling == scalings.min() && level.bestScaling == scalings.max())
        }
        // The verdicts follow from the levels at concurrency >= cores: the run's medians, and every round.
        let judged = out.summary.levels.filter { $0.combined.concurrency >= out.cores }
        #expect(out.summary.targetLevelsMeasured == !judged.isEmpty)
        #expect(out.summary.targetMet == (!judged.isEmpty && judged.allSatisfy { $0.combined.scaling >= 0.9 }))
        #expect(out.summary.targetMetInEveryRound == (!judged.isEmpty && judged.allSatisfy { $0.worstScaling >= 0.9 }))
        for round in out.rounds {
            #expect(round.http.map(\.concurrency) == [1, 2, 4] && round.singleThreadInterleaved.count == 2)
            // Concurrency 1 is judged against its paired rate, each other level against the
            // single-thread slices interleaved with it.
            let baselines = [round.singleThreadPaired] + round.singleThreadInterleaved
            for (run, expected) in zip(round.http, baselines) {
                #expect(abs(run.baseline - expected) <= 1e-9 * expected)
                let scaling = run.requestsPerSecond / (Double(min(run.concurrency, out.cores)) * run.baseline)
                #expect(abs(run.scaling - scaling) <= 1e-9 * scaling)
                // Above concurrency 1 a slice's first answer on every connection, and those
                // still on their way when its count is complete, are answered but not timed.
                #expect(run.timedRequests == 4 && run.errors == 0 && run.localized == run.requests)
                #expect(run.concurrency == 1 ? run.requests == 4 : run.requests >= 4 + run.concurrency)
            }
        }
    }
}

/// `arcloud serve` started with `arguments`, once its first stdout line (the bound URL) is read.
private struct RunningServe {
    let process = Process()
    let out = Pipe(), err = Pipe()
    /// The first stdout bytes, through the "listening on" line.
    private(set) var firstLine = Data()
    /// The bound URL, `http://127.0.0.1:PORT`.
    private(set) var url = ""

    init(_ arguments: [String]) throws {
        process.executableURL = ArcloudProcess.executable
        process.arguments = ["serve"] + arguments
        process.standardOutput = out
        process.standardError = err
        try process.run()
        while !firstLine.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            firstLine += chunk
        }
        let line = String(decoding: firstLine, as: UTF8.self)
        guard let bound = line.split(separator: " ").first(where: { $0.hasPrefix("http://") }) else {
            process.terminate()
            throw DidNotStart(stdout: line)
        }
        url = String(bound)
    }

    /// The service exited or printed something else before its "listening on" line.
    struct DidNotStart: Error { var stdout: String }
}
