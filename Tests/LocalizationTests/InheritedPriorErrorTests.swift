@testable import Localization
import Geometry
import Testing
import VPSModel
import Vision

/// `Localizer.inheritingPriorError` moves a tracking prior by its 95 % error and no
/// farther: the step along a covariance direction reaches the position or the rotation
/// bound, whichever comes first.
@Suite struct InheritedPriorErrorTests {
    let pose = CameraFromWorld(Pose(rotation: Quaternion(axis: SIMD3(0.3, 1, 0.1), angle: 1.2),
                                    translation: SIMD3(-3, 1.6, 7)))
    let error = PoseAccuracy(position: 0.2, rotationDegrees: 1.5)

    func moved(by factor: Double, along d: [Double]) -> (translation: Double, rotationDegrees: Double) {
        let s = d.map { $0 * factor }
        return pose.perturbed(rotation: SIMD3(s[0], s[1], s[2]), translation: SIMD3(s[3], s[4], s[5])).pose
            .error(to: pose.pose)
    }

    @Test(arguments: [
        [0, 0, 0, 0.01, -0.02, 0.005],          // a shift: the position bound is reached
        [0.002, -0.001, 0.0005, 0, 0, 0],       // a turn about the camera: it moves the centre too
        [0.004, 0.001, 0, 0.003, 0, -0.002],    // both
    ])
    func theStepReachesOneBoundAndExceedsNeither(direction: [Double]) {
        let factor = Localizer.stepReaching(error, along: direction, from: pose)
        #expect(factor > 0)
        let d = moved(by: factor, along: direction)
        #expect(d.translation <= error.position * (1 + 1e-6) && d.rotationDegrees <= error.rotationDegrees * (1 + 1e-6))
        let reached = max(d.translation / error.position, d.rotationDegrees / error.rotationDegrees)
        #expect(abs(reached - 1) < 1e-3, "reached \(reached) of the nearer bound")
    }

    @Test func noDirectionNoStep() {
        #expect(Localizer.stepReaching(error, along: [0, 0, 0, 0, 0, 0], from: pose) == 0)
    }
}
