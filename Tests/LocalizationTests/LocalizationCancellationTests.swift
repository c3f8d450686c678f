import Localization
import Foundation
import Synchronization
import Testing

/// A localization stops between stages once its `LocalizationCancellation` says so, and
/// is unchanged when it never does.
@Suite struct LocalizationCancellationTests {
    /// Counts how often the localizer asked, and says "cancel" from the `cancelAt`-th time on.
    final class CountingCondition: Sendable {
        let asked = Atomic<Int>(0)
        let cancelAt: Int
        init(cancelAt: Int) { self.cancelAt = cancelAt }
        var cancellation: LocalizationCancellation {
            LocalizationCancellation(when: { [self] in asked.add(1, ordering: .relaxed).newValue >= cancelAt })
        }
    }

    @Test func deadlinesAndConditions() {
        #expect(!LocalizationCancellation.none.isCancelled)
        #expect(!LocalizationCancellation(deadline: .now + .seconds(60)).isCancelled)
        #expect(LocalizationCancellation(deadline: .now - .milliseconds(1)).isCancelled)
        #expect(LocalizationCancellation(when: { true }).isCancelled)
        #expect(LocalizationCancellation(deadline: .now + .seconds(60), when: { true }).isCancelled)
        #expect(throws: LocalizationError.cancelled) { try LocalizationCancellation(when: { true }).check() }
    }

    @Test func aPassedDeadlineStopsBeforeAnyWork() throws {
        let inputs = LocalizerInputTests()
        let localizer = try inputs.localizer()
        #expect(throws: LocalizationError.cancelled) {
            try localizer.localize(encoded: try inputs.frameBytes(), intrinsics: try inputs.camera,
                                   cancellation: LocalizationCancellation(deadline: .now - .seconds(1)))
        }
    }

    @Test func aCancellationMidwayStopsAtTheNextStage() throws {
        let inputs = LocalizerInputTests()
        let localizer = try inputs.localizer()
        let bytes = try inputs.frameBytes(), camera = try inputs.camera
        // Never cancelled: the answer is the one without a cancellation, and it was asked
        // at several stages.
        let never = CountingCondition(cancelAt: .max)
        let plain = try localizer.localize(encoded: bytes, intrinsics: camera)
        let watched = try localizer.localize(encoded: bytes, intrinsics: camera, cancellation: never.cancellation)
        #expect(watched.isLocalized && watched.pose == plain.pose)
        let stages = never.asked.load(ordering: .relaxed)
        #expect(stages >= 3, "asked \(stages) times")
        // Cancelled at the second question (the first is before decoding, the second after
        // feature extraction): it stops there, asking no more.
        let second = CountingCondition(cancelAt: 2)
        #expect(throws: LocalizationError.cancelled) {
            try localizer.localize(encoded: bytes, intrinsics: camera, cancellation: second.cancellation)
        }
        #expect(second.asked.load(ordering: .relaxed) == 2)
    }
}
