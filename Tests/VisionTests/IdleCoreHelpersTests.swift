import Foundation
import Baselines
import Support
import Testing
import Vision

/// Idle-core helpers must not change a feature, must actually take part, and must stay out
/// of the way while every core has a job.
@Suite struct IdleCoreHelpersTests {
    /// Runs `body` on a thread of its own that has opted into `helpers`.
    private func onHelpedThread<R: Sendable>(_ helpers: IdleCoreHelpers, _ body: @escaping @Sendable () throws -> R) throws -> R {
        let result = Locked<Result<R, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            helpers.useOnCurrentThread()
            defer { IdleCoreHelpers.stopUsingOnCurrentThread() }
            let outcome = Result { try body() }
            result.withLock { $0 = outcome }
            done.signal()
        }
        thread.start()
        done.wait()
        return try result.withLock { $0 }!.get()
    }

    @Test(arguments: [500, 1000, 2000])
    func extractionWithHelpersGivesTheSameFeatures(count: Int) throws {
        let frames = try (0..<6).map { try SyntheticImages.texture(width: 640, height: 480, seed: UInt64(100 + $0)) }
        let alone = try ORBExtractor(options: ORBOptions(featureCount: count))
        let expected = try frames.map { try alone.extract($0) }
        let helpers = try IdleCoreHelpers(threads: 3, cores: 4)
        let helped = try ORBExtractor(options: ORBOptions(featureCount: count))
        // No job is counted as running, so the helpers may take part from the start; repeat
        // until they have (a loaded test machine may keep them off a core for a while).
        var rounds = 0
        repeat {
            let got = try onHelpedThread(helpers) { try frames.map { try helped.extract($0) } }
            #expect(got == expected)
            rounds += 1
        } while helpers.tasksRun == 0 && rounds < 200
        #expect(helpers.tasksRun > 0, "the helpers never took a task in \(rounds) rounds")
        #expect(helpers.threadCount == 3)
    }

    @Test func helpersTakeNoTaskWhileEveryCoreHasAJob() throws {
        let frame = try SyntheticImages.texture(width: 640, height: 480, seed: 7)
        let helpers = try IdleCoreHelpers(threads: 2, cores: 1)
        let orb = try ORBExtractor()
        let expected = try ORBExtractor().extract(frame)
        let got = try onHelpedThread(helpers) {
            try helpers.running { try (0..<20).map { _ in try orb.extract(frame) } }
        }
        #expect(got.allSatisfy { $0 == expected })
        #expect(helpers.tasksRun == 0)
    }

    @Test func outOfRangeArgumentsAreRejected() {
        #expect(throws: VisionError.self) { try IdleCoreHelpers(threads: 0, cores: 2) }
        #expect(throws: VisionError.self) { try IdleCoreHelpers(threads: 1, cores: 0) }
        #expect(throws: VisionError.self) { try IdleCoreHelpers(threads: 257, cores: 2) }
    }
}
