@testable import Localization
import Geometry
import Testing
import Vision
import VPSModel

/// The seed moves of `Localizer.inheritingSeedError` follow `PoseUncertainty.covariance`'s
/// parametrisation, so a move of the covariance's size is a move of the seed's error's size.
@Suite struct InheritedSeedErrorTests {
    let pose = CameraFromWorld(Pose(rotation: Quaternion(axis: SIMD3(0.2, 1, -0.4), angle: 0.8),
                                    translation: SIMD3(1, -2, 0.5)))

    @Test func aMoveRotatesInTheCameraFrameAndShiftsTheTranslation() {
        let ω = SIMD3(0.01, -0.02, 0.005), δ = SIMD3(0.1, 0, -0.3)
        let moved = pose.perturbed(rotation: ω, translation: δ)
        let turn = Quaternion(axis: ω / length(ω), angle: length(ω)).matrix
        for x in [SIMD3(0.0, 0, 5), SIMD3(3.0, -1, 2), SIMD3(-4.0, 2, 8)] {
            let expected = turn * (pose.rotation * x) + pose.translation + δ
            #expect(length(moved.apply(x) - expected) < 1e-12)
        }
        // Opposite moves undo each other, and a zero move is none.
        let back = moved.perturbed(rotation: -ω, translation: -δ)
        #expect(back.pose.error(to: pose.pose).rotationDegrees < 1e-9)
        #expect(pose.perturbed(rotation: .zero, translation: .zero) == pose)
    }

    /// A grown pose may lie anywhere within its seed's 95 % bound; beyond it, in either
    /// rotation or position, the two disagree.
    @Test func aGrowthBeyondItsSeedsBoundInEitherPartContradictsIt() {
        let bound = PoseAccuracy(position: 0.2, rotationDegrees: 0.6)
        #expect(!Localizer.growthContradicts(seedBound: bound, apart: (translation: 0.2, rotationDegrees: 0.6)))
        #expect(!Localizer.growthContradicts(seedBound: bound, apart: (translation: 0, rotationDegrees: 0)))
        #expect(Localizer.growthContradicts(seedBound: bound, apart: (translation: 0.21, rotationDegrees: 0.1)))
        #expect(Localizer.growthContradicts(seedBound: bound, apart: (translation: 0.05, rotationDegrees: 0.66)))
    }
}
