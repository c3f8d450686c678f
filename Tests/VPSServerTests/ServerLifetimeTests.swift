import Foundation
import Testing
import VPSServer
import TestSupport
import ServerTestSupport

/// A stopped server lets go of what it held: its engine (and so the maps it loaded) and the
/// requests it answered. The worker pool used to keep a taken job in its queue until the
/// next compaction; the job's closure holds the request handler, which owns the pool, so a
/// stopped server with its engine and last requests was never freed (LeakSanitizer found
/// 18 of them, 37 MB, at the end of an ASan test run).
@Suite struct ServerLifetimeTests {
    @Test func aStoppedServerReleasesItsEngine() async throws {
        weak var released: TestOnlyEngine?
        do {
            let f = try ServerFixture()
            released = f.engine
            let client = try f.client(f.allMaps)
            _ = try await client.localize(image: ServerFixture.pngHeader(width: 64, height: 48), request: ServerFixture.request())
            f.server.stop(gracePeriod: .seconds(2))
        }
        // Worker threads exit on their own after the stop; give them time on a loaded machine.
        let deadline = ContinuousClock.now + .seconds(60)
        while released != nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(released == nil, "the stopped server still holds its engine")
    }
}
