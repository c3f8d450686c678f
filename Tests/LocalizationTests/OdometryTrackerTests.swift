@testable import Localization
import Geometry
import Testing
import VPSModel

/// What a tracking prior is worth: the last fix's accuracy, widened by the drift allowed
/// over the distance walked since.
@Suite struct OdometryTrackerTests {
    let fix = Pose(rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: 0.3), translation: SIMD3(4, 1.5, -2))
    let odometryAtFix = Pose(rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: -1.1), translation: SIMD3(10, 0, 3))

    @Test func theFixAccuracyGrowsWithTheDistanceTravelled() throws {
        var tracker = OdometryTracker()
        tracker.update(fix: fix, accuracy: PoseAccuracy(position: 0.1, rotationDegrees: 0.4), odometry: odometryAtFix)
        let atFix = try #require(tracker.predictAccuracy(odometry: odometryAtFix))
        #expect(abs(atFix.position - 0.1) < 1e-12 && abs(atFix.rotationDegrees - 0.4) < 1e-12)
        // 3-4-5: five units walked since the fix.
        let later = Pose(rotation: odometryAtFix.rotation, translation: odometryAtFix.translation + SIMD3(3, 0, 4))
        let moved = try #require(tracker.predictAccuracy(odometry: later))
        #expect(abs(moved.position - (0.1 + 5 * tracker.driftFraction)) < 1e-12)
        #expect(abs(moved.rotationDegrees - (0.4 + 5 * tracker.driftDegreesPerUnit)) < 1e-12)
        // The prediction itself is the fix carried by the odometry's motion.
        let predicted = try #require(tracker.predict(odometry: later))
        #expect(abs(length(predicted.translation - fix.translation) - 5) < 1e-9)
    }

    @Test func noAccuracyWithoutAClaimedFixOrAfterAReset() {
        var tracker = OdometryTracker()
        #expect(tracker.predictAccuracy(odometry: odometryAtFix) == nil)
        tracker.update(fix: fix, odometry: odometryAtFix)
        #expect(tracker.predict(odometry: odometryAtFix) != nil)
        #expect(tracker.predictAccuracy(odometry: odometryAtFix) == nil, "a fix that claims nothing")
        tracker.update(fix: fix, accuracy: PoseAccuracy(position: 0.1, rotationDegrees: 0.4), odometry: odometryAtFix)
        #expect(tracker.predictAccuracy(odometry: nil) == nil, "a frame without odometry")
        // A frame that is not placed keeps the last fix and its accuracy.
        tracker.update(fix: nil, accuracy: nil, odometry: odometryAtFix)
        #expect(tracker.predictAccuracy(odometry: odometryAtFix) != nil)
        tracker.reset()
        #expect(tracker.predict(odometry: odometryAtFix) == nil && tracker.predictAccuracy(odometry: odometryAtFix) == nil)
    }
}
