import Foundation
import Testing
import VPSModel
import VPSServer
import TestSupport

private let packageRoot = PackageDirectory.root
private let shippedMaps = packageRoot.appendingPathComponent("Maps")
private let hardSession = packageRoot.appendingPathComponent("Datasets/gallery-query-hard")
private let hasShippedData = FileManager.default.fileExists(atPath: shippedMaps.appendingPathComponent("gallery.vpsmap").path)
    && FileManager.default.fileExists(atPath: hardSession.appendingPathComponent("session.json").path)

/// Drain on SIGTERM, against a real `arcloud serve` process localizing real frames of the
/// shipped map: every request already received is answered in full, new connections are
/// refused, `/healthz` on an open connection says draining, and the process exits.
@Suite(.enabled(if: hasShippedData, "needs Maps/gallery.vpsmap and Datasets/gallery-query-hard"))
struct DrainTests {
    @Test func sigtermAnswersEveryLocalizationInFlight() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("drain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("tokens.db").path
        let store = try SQLiteTokenStore(path: db)
        let token = try store.create(name: "drain").token

        // One worker: the eight localizations queue behind each other, so most are still
        // waiting when SIGTERM arrives.
        let serve = Process()
        serve.executableURL = PackageDirectory.arcloudExecutable
        serve.arguments = ["serve", "--maps", shippedMaps.path, "--db", db, "--port", "0", "--workers", "1",
                           "--drain-timeout", "120", "--max-connections-per-client", "64", "--budget", "600", "--head-timeout", "600", "--timeout", "600", "--access-log", dir.appendingPathComponent("access.log").path]
        let out = Pipe(), err = Pipe()
        serve.standardOutput = out
        serve.standardError = err
        try serve.run()
        defer { if serve.isRunning { serve.interrupt(); serve.waitUntilExit() } }
        let stdout = out.fileHandleForReading
        let line = await offThread { () -> String in
            var firstLine = Data()
            while !firstLine.contains(UInt8(ascii: "\n")) {
                let chunk = stdout.availableData
                if chunk.isEmpty { break }
                firstLine += chunk
            }
            return String(decoding: firstLine, as: UTF8.self)
        }
        let url = try #require(line.split(separator: " ").first { $0.hasPrefix("http://") }, "\(line)")
        let port = try #require(UInt16(url.split(separator: ":").last ?? ""))

        // Load the map first, so the drain is about localizations, not the map's loading.
        let session = try RecordedSession.load(from: hardSession)
        func request(_ i: Int) throws -> [UInt8] {
            let frame = session.frames[i % session.frames.count]
            let image = [UInt8](try Data(contentsOf: hardSession.appendingPathComponent(frame.image)))
            let json = try JSONEncoder().encode(LocalizeRequest(mapId: "gallery", intrinsics: session.camera, gravity: frame.gravity))
            let body = multipartBody(boundary: "drainb", [("request", "application/json", Array(json)), ("image", "image/jpeg", image)])
            return localizePost(token: token, contentType: "multipart/form-data; boundary=drainb", body: body)
        }
        let warm = try await rawExchangeOffThread(port: port, try request(0), timeout: 120)
        #expect(warm.status == 200)

        // Everything from the first send to the health answer runs on a thread of its own:
        // on the cooperative pool, a busy 2-core CI machine delayed a sleep here by seconds,
        // every localization finished before the signal, and there was nothing to drain.
        let requests = try (0..<32).map { try request($0 + 1) }
        let idle = try RawConnection(port: port)            // opened before the signal
        let inFlight = try requests.map { _ in try RawConnection(port: port) }
        nonisolated(unsafe) let (idleConnection, connections) = (idle, inFlight)
        let servePID = serve.processIdentifier
        let (sent, refused, healthText) = await offThread { () -> ([Bool], Bool, String) in
            // Eight localizations as in the report, behind twenty-four more on the one
            // worker, so that they are still waiting when the signal comes.
            let sent = zip(connections, requests).map { $0.send($1) }
            usleep(300_000)                                 // fully sent well before SIGTERM
            kill(servePID, SIGTERM)
            // New connections are refused.
            var refused = false
            let refusedBy = Date().addingTimeInterval(30)
            while !refused, Date() < refusedBy {
                if (try? RawConnection(port: port)) == nil { refused = true } else { usleep(20_000) }
            }
            // A connection opened before the signal is still served, and says draining.
            _ = idleConnection.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            return (sent, refused, idleConnection.readResponse(timeout: 60).text)
        }
        #expect(sent.count == 32 && sent.allSatisfy { $0 })
        #expect(refused)
        let health = try #require(RawResponse(healthText))
        #expect(health.status == 503 && health.body.contains(#""status":"draining""#))
        #expect(health.headers["connection"]?.lowercased() == "close")

        // Read one after another on one thread (answers wait in the socket buffers), so
        // the test does not hold 32 Dispatch threads.
        nonisolated(unsafe) let readers = inFlight
        let answers = await offThread { readers.map { RawResponse($0.readResponse(timeout: 120).text) } }
        #expect(answers.count == 32)
        for a in answers {
            #expect(a?.status == 200, "\(a.map { "\($0.status) \($0.body.prefix(200))" } ?? "no answer")")
            #expect(a?.body.contains(#""status":"#) == true)
        }

        let exited = await offThread { () -> Bool in
            let by = Date().addingTimeInterval(130)
            while serve.isRunning, Date() < by { usleep(10_000) }
            return !serve.isRunning
        }
        #expect(exited)
        if exited {
            #expect(serve.terminationStatus == 0)
            // Returns at once now; it also drops the run-loop source through which Foundation's
            // Process keeps itself alive (only `waitUntilExit` clears it): without this call
            // LeakSanitizer reports the Process, its pipes and arguments (2.8 KB) at exit.
            serve.waitUntilExit()
        }
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // "draining N request(s)": the signal came while localizations were in flight.
        let draining = stderr.split(separator: " ").firstIndex(of: "draining").map { stderr.split(separator: " ")[$0 + 1] }
        #expect(Int(draining ?? "") ?? 0 >= 1, "\(stderr)")
    }
}
