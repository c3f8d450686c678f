import Foundation
import Geometry
import Testing
import Vision
import TestSupport

/// The first-order pose covariance (`PoseUncertainty`) and the rival search.
@Suite struct PoseUncertaintyTests {
    /// Points of `scene` whose pixels lie in the box `x`, `y`.
    func patch(_ scene: SyntheticScene, x: ClosedRange<Double>, y: ClosedRange<Double>) -> (pixels: [SIMD2<Double>], world: [SIMD3<Double>]) {
        let keep = scene.pixels.indices.filter { x.contains(scene.pixels[$0].x) && y.contains(scene.pixels[$0].y) }
        return (keep.map { scene.pixels[$0] }, keep.map { scene.world[$0] })
    }

    @Test func predictedDeviationsMatchTheSpreadOfNoisySolves() throws {
        // Monte Carlo: re-solve with fresh 1 px noise; the spread of the rotation and centre
        // errors must match the predicted standard deviations within 30 %.
        var rng = SplitMix(seed: 21)
        let scene = SyntheticScene(n: 40, rng: &rng)
        let predicted = try PoseUncertainty(of: scene.truth, pixels: scene.pixels, worldPoints: scene.world, camera: testCamera)
        #expect(predicted.isDetermined)
        var rotations: [Double] = [], centres: [Double] = []
        for _ in 0 ..< 300 {
            let noisy = scene.pixels.map { $0 + SIMD2(rng.gaussian(), rng.gaussian()) }
            let solved = try AbsolutePoseEstimator.refine(scene.truth, pixels: noisy, worldPoints: scene.world,
                                                          camera: testCamera, loss: .trivial).pose
            rotations.append(rotationErrorDegrees(solved.rotation, scene.truth.rotation))
            centres.append(length(solved.pose.center - scene.truth.pose.center))
        }
        // The rotation error is the norm of three axes' errors, the largest of which the
        // prediction bounds: its RMS lies between σ_max and √3 σ_max.
        let rmsRotation = (rotations.map { $0 * $0 }.reduce(0, +) / Double(rotations.count)).squareRoot()
        let rmsCentre = (centres.map { $0 * $0 }.reduce(0, +) / Double(centres.count)).squareRoot()
        #expect(rmsRotation > 0.7 * predicted.rotationDegrees && rmsRotation < 1.3 * 3.squareRoot() * predicted.rotationDegrees,
                "RMS \(rmsRotation)° against σ \(predicted.rotationDegrees)°")
        #expect(rmsCentre > 0.7 * predicted.centre && rmsCentre < 1.3 * 3.squareRoot() * predicted.centre,
                "RMS \(rmsCentre) against σ \(predicted.centre)")
    }

    @Test func aSmallPatchDeterminesThePoseFarWorseThanTheWholeImage() throws {
        var rng = SplitMix(seed: 4)
        let scene = SyntheticScene(n: 2000, rng: &rng)
        let small = patch(scene, x: 300...340, y: 220...260)
        let spread = (Array(scene.pixels.prefix(small.pixels.count)), Array(scene.world.prefix(small.pixels.count)))
        #expect(small.pixels.count >= 8)
        let onPatch = try PoseUncertainty(of: scene.truth, pixels: small.pixels, worldPoints: small.world, camera: testCamera)
        let overImage = try PoseUncertainty(of: scene.truth, pixels: spread.0, worldPoints: spread.1, camera: testCamera)
        #expect(onPatch.rotationDegrees > 5 * overImage.rotationDegrees)
        #expect(onPatch.centre > 5 * overImage.centre)
    }

    @Test func pointUncertaintyAndNoiseWidenAndGravityNarrows() throws {
        var rng = SplitMix(seed: 8)
        let scene = SyntheticScene(n: 30, rng: &rng)
        let base = try PoseUncertainty(of: scene.truth, pixels: scene.pixels, worldPoints: scene.world, camera: testCamera)
        let noisy = try PoseUncertainty(of: scene.truth, pixels: scene.pixels, worldPoints: scene.world, camera: testCamera,
                                        noise: 2)
        #expect(abs(noisy.rotationDegrees / base.rotationDegrees - 2) < 1e-6)
        // Points known to ±0.3 world units in every direction, at 2–10 units' depth: tens of pixels.
        let uncertainPoints = try PoseUncertainty(of: scene.truth, pixels: scene.pixels, worldPoints: scene.world,
                                                  camera: testCamera,
                                                  pointCovariances: Array(repeating: Matrix3.identity * 0.09, count: 30))
        #expect(uncertainPoints.rotationDegrees > 3 * base.rotationDegrees)
        // World down (0, −1, 0) seen by the true camera.
        let down = scene.truth.rotation * SIMD3(0, -1, 0)
        let withGravity = try PoseUncertainty(of: scene.truth, pixels: scene.pixels, worldPoints: scene.world,
                                              camera: testCamera, gravity: down, gravitySigmaDegrees: 0.01)
        #expect(withGravity.rotationDegrees < base.rotationDegrees)
    }

    @Test func residualsThatScatterMoreThanModelledWidenTheBounds() throws {
        // 2 px of noise under a 1 px model: the residuals' own variance factor makes the
        // bounds about twice those of exact pixels.
        var rng = SplitMix(seed: 12)
        let exact = SyntheticScene(n: 200, rng: &rng)
        let noisy = exact.pixels.map { $0 + 2 * SIMD2(rng.gaussian(), rng.gaussian()) }
        let solved = try AbsolutePoseEstimator.refine(exact.truth, pixels: noisy, worldPoints: exact.world,
                                                      camera: testCamera, loss: .trivial).pose
        let modelled = try PoseUncertainty(of: exact.truth, pixels: exact.pixels, worldPoints: exact.world, camera: testCamera)
        let measured = try PoseUncertainty(of: solved, pixels: noisy, worldPoints: exact.world, camera: testCamera)
        #expect(abs(modelled.residualScale - 1) < 1e-9)
        #expect(measured.residualScale > 1.7 && measured.residualScale < 2.3, "\(measured.residualScale)")
        #expect(measured.centreBound95 > 1.7 * modelled.centreBound95)
    }

    @Test func boundsHoldForNineteenSolvesInTwenty() throws {
        // Monte Carlo over fresh scenes and 1 px noise: the refined pose lies within its own
        // 95 % bounds in at least 90 % of 200 trials (and the bounds are not absurdly loose:
        // the median error is more than a tenth of the bound).
        var rng = SplitMix(seed: 77)
        var within = 0, ratios: [Double] = []
        for _ in 0 ..< 200 {
            let scene = SyntheticScene(n: 60, noise: 1, rng: &rng)
            let solved = try AbsolutePoseEstimator.refine(scene.truth, pixels: scene.pixels, worldPoints: scene.world,
                                                          camera: testCamera, loss: .trivial).pose
            let u = try PoseUncertainty(of: solved, pixels: scene.pixels, worldPoints: scene.world, camera: testCamera,
                                        groups: PoseUncertainty.gridRegions(of: scene.pixels, width: 640, height: 480))
            let pose = try #require(u.pose)
            let centreError = length(pose.pose.center - scene.truth.pose.center)
            let rotationError = rotationErrorDegrees(pose.rotation, scene.truth.rotation)
            if centreError <= u.centreBound95 && rotationError <= u.rotationBound95Degrees { within += 1 }
            ratios.append(centreError / u.centreBound95)
        }
        #expect(within >= 180, "\(within) of 200 within their bounds")
        #expect(ratios.sorted()[100] > 0.1, "median error / bound \(ratios.sorted()[100])")
    }

    @Test func theJackknifeCatchesAnErrorSharedByOneRegion() throws {
        // Every point in the image's top-left ninth is biased the same way by 6 px (a patch
        // triangulated at a wrong depth, or matched one window along): each fits within
        // noise of its neighbours, so the formal estimate hardly widens, but leaving the
        // region out moves the pose, and the bound must cover the error it causes.
        var rng = SplitMix(seed: 5)
        let scene = SyntheticScene(n: 300, noise: 0.5, rng: &rng)
        let biased = scene.pixels.map { $0.x < 640.0 / 3 && $0.y < 160 ? $0 + SIMD2(6, 0) : $0 }
        let solved = try AbsolutePoseEstimator.refine(scene.truth, pixels: biased, worldPoints: scene.world,
                                                      camera: testCamera, loss: .trivial).pose
        let formal = try PoseUncertainty(of: solved, pixels: biased, worldPoints: scene.world, camera: testCamera)
        let jackknifed = try PoseUncertainty(of: solved, pixels: biased, worldPoints: scene.world, camera: testCamera,
                                             groups: PoseUncertainty.gridRegions(of: biased, width: 640, height: 480))
        #expect(formal.jackknifeGroups == 0 && jackknifed.jackknifeGroups >= 30)
        let pose = try #require(jackknifed.pose)
        let centreError = length(pose.pose.center - scene.truth.pose.center)
        let rotationError = rotationErrorDegrees(pose.rotation, scene.truth.rotation)
        #expect(centreError > formal.centreBound95, "the formal bound alone misses it: \(centreError) vs \(formal.centreBound95)")
        #expect(centreError <= jackknifed.centreBound95, "\(centreError) vs \(jackknifed.centreBound95)")
        #expect(rotationError <= jackknifed.rotationBound95Degrees)
    }

    @Test func pointsUncertainInDepthLeaveTheCentreUncertainAlongTheAxis() throws {
        // The same points, each known to ±0.5 units along the camera's optical axis (as a
        // forward walk maps them: depth poorly known) and exactly across it: the pose stays
        // determined, but the centre along the axis, which those depths pin, is far less so.
        var rng = SplitMix(seed: 9)
        let scene = SyntheticScene(n: 80, rng: &rng)
        let axis = scene.truth.rotation.transposed * SIMD3(0, 0, 1)
        let d = 0.5 * axis
        let depthOnly = Matrix3(rows: d * d.x, d * d.y, d * d.z)
        let exact = try PoseUncertainty(of: scene.truth, pixels: scene.pixels, worldPoints: scene.world, camera: testCamera)
        let depthUnknown = try PoseUncertainty(of: scene.truth, pixels: scene.pixels, worldPoints: scene.world,
                                               camera: testCamera, pointCovariances: Array(repeating: depthOnly, count: 80))
        #expect(depthUnknown.isDetermined)
        #expect(depthUnknown.centre > 3 * exact.centre, "\(depthUnknown.centre) vs \(exact.centre)")
    }

    @Test func aCameraKnownOnlyToItsCalibrationWidensTheBoundsByWhatItMoves() throws {
        // A principal point off by δ pixels turns the whole view by about δ / f radians,
        // whatever the number of points: 2 px at f = 500 is 0.23°, so with hundreds of exact
        // points the rotation bound is set by the calibration and comes to ~3 σ of that.
        var rng = SplitMix(seed: 15)
        let scene = SyntheticScene(n: 400, rng: &rng)
        let exact = try PoseUncertainty(of: scene.truth, pixels: scene.pixels, worldPoints: scene.world, camera: testCamera)
        let calibrated = try PoseUncertainty(of: scene.truth, pixels: scene.pixels, worldPoints: scene.world,
                                             camera: testCamera, intrinsicsSigma: SIMD4(0, 0, 2, 2))
        let turn = 2.0 / 500 * 180 / .pi
        #expect(calibrated.rotationBound95Degrees > 2 * turn && calibrated.rotationBound95Degrees < 5 * turn,
                "\(calibrated.rotationBound95Degrees)° against \(turn)°")
        #expect(calibrated.rotationBound95Degrees > 3 * exact.rotationBound95Degrees)
        #expect(throws: VisionError.self) {
            try PoseUncertainty(of: scene.truth, pixels: scene.pixels, worldPoints: scene.world, camera: testCamera,
                                intrinsicsSigma: SIMD4(-1, 0, 0, 0))
        }
    }

    @Test func tooFewOrCollinearPointsDetermineNothing() throws {
        var rng = SplitMix(seed: 2)
        let scene = SyntheticScene(n: 2, rng: &rng)
        let two = try PoseUncertainty(of: scene.truth, pixels: scene.pixels, worldPoints: scene.world, camera: testCamera)
        #expect(!two.isDetermined && two.rotationDegrees == .infinity && two.centre == .infinity)
        // Nothing determined, nothing bounded: a zero bound would claim an exact pose.
        #expect(two.rotationBound95Degrees == .infinity && two.centreBound95 == .infinity)
        let line = (0 ..< 10).map { SIMD3(Double($0) * 0.1, 0, 5) }
        let pose = CameraFromWorld(rotation: .identity, translation: .zero)
        let pixels = line.map { testCamera.project($0)! }
        let collinear = try PoseUncertainty(of: pose, pixels: pixels, worldPoints: line, camera: testCamera)
        #expect(!collinear.isDetermined)
        #expect(collinear.rotationBound95Degrees == .infinity && collinear.centreBound95 == .infinity)
    }

    @Test func badArgumentsAreRefused() {
        let e = #expect(throws: VisionError.self) {
            try PoseUncertainty(of: CameraFromWorld(rotation: .identity, translation: .zero), pixels: [.zero],
                                worldPoints: [], camera: testCamera)
        }
        #expect(e?.code == .invalidArgument)
        #expect(throws: VisionError.self) {
            try PoseUncertainty(of: CameraFromWorld(rotation: .identity, translation: .zero), pixels: [.zero],
                                worldPoints: [SIMD3(0, 0, 1)], camera: testCamera,
                                pointCovariances: [Matrix3.identity * -1])
        }
    }

    @Test func theRivalSearchFindsASecondExplanationAndNothingWhereThereIsNone() throws {
        // 120 matches fit pose `a`, 80 others fit a pose 34° and half a unit away (a repeated
        // facade): with `a`'s region excluded, the search finds the other.
        var rng = SplitMix(seed: 31)
        let a = SyntheticScene(n: 120, rng: &rng)
        let other = CameraFromWorld(rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: 0.6).matrix * a.truth.rotation,
                                    translation: a.truth.translation + SIMD3(0.5, 0, 0))
        let otherPixels = (0 ..< 80).map { _ in
            SIMD2(Double.random(in: 0 ..< 640, using: &rng), Double.random(in: 0 ..< 480, using: &rng))
        }
        let otherWorld = otherPixels.map { p -> SIMD3<Double> in
            let xc = testCamera.ray(p) * Double.random(in: 3 ... 8, using: &rng)
            return other.rotation.transposed * (xc - other.translation)
        }
        let pixels = a.pixels + otherPixels, world = a.world + otherWorld
        let estimator = AbsolutePoseEstimator(options: RansacOptions(threshold: 2))
        let best = try estimator.estimate(pixels: pixels, worldPoints: world, camera: testCamera)
        #expect(best.inlierCount >= 115 && rotationErrorDegrees(best.cameraFromWorld.rotation, a.truth.rotation) < 0.1)
        let exclusion = AbsolutePoseEstimator.Exclusion(around: best.cameraFromWorld, maxRotationDegrees: 10,
                                                        maxCentreDistance: 0.2)
        let rival = try #require(try estimator.rival(excluding: exclusion, pixels: pixels, worldPoints: world,
                                                     camera: testCamera))
        #expect(rival.inlierCount >= 75)
        #expect(rotationErrorDegrees(rival.cameraFromWorld.rotation, other.rotation) < 0.5)
        // One pose only: nothing outside its region explains more than a handful of matches.
        let single = try estimator.rival(excluding: exclusion, pixels: a.pixels, worldPoints: a.world, camera: testCamera)
        #expect((single?.inlierCount ?? 0) < 8)
    }
}
