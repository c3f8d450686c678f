import Foundation
import Testing

/// `arcloud simulate` on the shipped map and query walk with its committed script.
@Suite("arcloud simulate on the shipped data")
struct SimulateShippedTests {
    // The shipped walk, map and script, as `SimulateCommandTests` names them.
    typealias Shipped = SimulateCommandTests

    @Test("the shipped query walk with its script: localizes, navigates, arrives, collects, opens a link")
    func shippedSession() throws {
        let r = try ArcloudProcess.run(["simulate", Shipped.session, "--map", Shipped.map, "--script", Shipped.script,
                                        "--expect", "localized,arrived,noError"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let lines = try SimulateCommandTests.lines(r.stdout)
        #expect(lines.count > 20)
        // Stable field order: kind, time, frame, then the kind's own fields.
        for text in r.stdout.split(separator: "\n") {
            #expect(text.hasPrefix(#"{"kind":""#) && text.contains(#","time":"#) && text.contains(#","frame":"#))
        }
        let states = lines.filter { $0["kind"] as? String == "state" }
        #expect(states.first?["vpsState"] as? String == "notStarted")
        #expect(states.contains { $0["vpsState"] as? String == "localized" })
        for state in states {
            #expect(Set(state.keys) == ["kind", "time", "frame", "isSceneReady", "vpsState", "sectionId", "navigation",
                                        "lastError", "isShutDown"])
        }
        let events = SimulateCommandTests.events(lines)
        #expect(events.contains("localization.localized"))
        #expect(events.contains("navigation.started"))
        #expect(events.contains("navigation.arrived"))
        #expect(events.filter { $0 == "tap" }.count == 2)
        #expect(events.contains("collection"))
        #expect(events.contains("link"))
        #expect(!events.contains("navigation.failed"))
        // Replay time never goes back.
        let times = lines.compactMap { $0["time"] as? Double }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })

        let summary = try #require(lines.last)
        #expect(summary["kind"] as? String == "summary")
        #expect(summary["exitStatus"] as? Int == 0)
        #expect(summary["unmet"] as? [String] == [])
        #expect((summary["collected"] as? [String])?.count == 1)
        #expect((summary["linksOpened"] as? [String])?.first?.hasPrefix("https://") == true)
        let final = try #require(summary["finalState"] as? [String: Any])
        #expect(final["vpsState"] as? String == "localized")
        #expect((final["navigation"] as? [String: Any])?["hasArrived"] as? Bool == true)
        #expect(r.stderr.contains("arrived at"))
    }

    @Test("an expectation the final state does not meet exits 1 and names it")
    func unmetExpectation() throws {
        let r = try ArcloudProcess.run(["simulate", Shipped.session, "--map", Shipped.map, "--expect", "arrived,failed"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("unmet --expect: arrived,failed"))
        let summary = try #require(try SimulateCommandTests.lines(r.stdout).last)
        #expect(summary["unmet"] as? [String] == ["arrived", "failed"])
    }

    @Test("the HTTP service and the embedded VPS print the same states and events")
    func httpMatchesEmbedded() throws {
        let server = try SimulateServer(maps: Shipped.root.appendingPathComponent("Maps"))
        defer { server.stop() }
        let token = try server.createToken()
        #expect(token.hasPrefix("arc_"))
        let http = try ArcloudProcess.run(["simulate", Shipped.session, "--map", "gallery", "--server", server.url,
                                           "--token", token, "--script", Shipped.script])
        let embedded = try ArcloudProcess.run(["simulate", Shipped.session, "--map", Shipped.map, "--script", Shipped.script])
        #expect(http.status == 0, "stderr: \(http.stderr)")
        #expect(embedded.status == 0)
        func body(_ out: String) -> [Substring] { out.split(separator: "\n").filter { !$0.contains(#""kind":"summary""#) } }
        #expect(body(http.stdout).count > 20)
        #expect(body(http.stdout) == body(embedded.stdout))
    }
}
