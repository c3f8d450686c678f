import Foundation
import Geometry
import Vision
import VPSModel

/// How far an answer follows the point it was searched from: the experiment behind
/// `inheritingSeedError` (a seed moved within its bounds) and `inheritingPriorError` (a
/// tracking prior moved within its error). Both move their start both ways along the
/// leading principal directions of a covariance and measure the spread of the answers.
extension Localizer {
    /// Half the difference between the answers from `start` moved by `step(move)` one way
    /// and the other, in quadrature over `moves`: the error an answer inherits from where
    /// its search started, when that start is off by up to the step. Nil when either start
    /// gives no answer (then the answer depends on where the search started).
    func halfSpread(along moves: [[Double]], from start: CameraFromWorld, step: ([Double]) -> [Double],
                    answer: (CameraFromWorld) -> Pose?) -> PoseAccuracy? {
        var rotationVariance = 0.0, centreVariance = 0.0
        for move in moves {
            let s = step(move)
            guard let minus = answer(start.perturbed(by: s, times: -1)),
                  let plus = answer(start.perturbed(by: s, times: 1)) else { return nil }
            let d = plus.error(to: minus)
            rotationVariance += pow(d.rotationDegrees / 2, 2)
            centreVariance += pow(d.translation / 2, 2)
        }
        return PoseAccuracy(position: centreVariance.squareRoot(), rotationDegrees: rotationVariance.squareRoot())
    }

    /// The principal axes of a pose covariance (6×6, row-major: rotation, then
    /// translation), each as a one-σ move in those units, largest first. Each axis is
    /// measured relative to the acceptance tolerance, so that the directions that matter to
    /// acceptance come first. Axes of no variance are left out.
    func principalMoves(of covariance: [Double]) -> [[Double]] {
        let tolerance = options.acceptance.tolerance
        let radians = tolerance.degrees * .pi / 180, length = scale(tolerance.scales)
        let units = [radians, radians, radians, length, length, length]
        let relative = (0..<6).map { i in (0..<6).map { j in covariance[6 * i + j] / (units[i] * units[j]) } }
        let (values, vectors) = SymmetricEigen.decompose(relative)
        return zip(values, vectors).filter { $0.0 > 0 }.map { value, vector in
            (0..<6).map { value.squareRoot() * vector[$0] * units[$0] }
        }
    }
}

extension CameraFromWorld {
    /// This pose with a world point X moved to exp(ω)·R·X + t + δ in the camera, the
    /// parametrisation of `PoseUncertainty.covariance`.
    func perturbed(rotation ω: SIMD3<Double>, translation δ: SIMD3<Double>) -> CameraFromWorld {
        let angle = length(ω)
        let r = angle > 0 ? Quaternion(axis: ω / angle, angle: angle).matrix * rotation : rotation
        return CameraFromWorld(rotation: r, translation: translation + δ)
    }

    /// This pose moved by `times` × `move`, a six-vector (rotation ω, then translation δ) of
    /// `perturbed(rotation:translation:)`: a principal move of `Localizer.principalMoves`.
    func perturbed(by move: [Double], times s: Double = 1) -> CameraFromWorld {
        perturbed(rotation: s * SIMD3(move[0], move[1], move[2]), translation: s * SIMD3(move[3], move[4], move[5]))
    }
}
