import Geometry
import Testing
import Vision
import TestSupport

/// The upright P2P minimal solver and gravity-aware RANSAC (known camera gravity).
@Suite struct UprightPoseTests {
    /// World down, (0, −1, 0), in the camera frame of `pose`.
    func gravity(of pose: CameraFromWorld) -> SIMD3<Double> { pose.rotation * SIMD3(0, -1, 0) }

    @Test func p2pRecoversExactPosesToNanoPrecision() throws {
        var rng = SplitMix(seed: 17)
        var failures = 0, worst = 0.0
        let trials = 2000
        for _ in 0 ..< trials {
            let scene = SyntheticScene(n: 2, rng: &rng)
            let rays = scene.pixels.map { testCamera.ray($0) }
            let sols = try AbsolutePoseEstimator.p2pUpright(bearings: rays, worldPoints: scene.world,
                                                            gravity: gravity(of: scene.truth))
            #expect(sols.count <= 2)
            let best = sols.map { maxAbsDifference($0, scene.truth) }.min() ?? .infinity
            if best > 1e-9 { failures += 1 }
            if best.isFinite { worst = max(worst, best) }
        }
        #expect(failures <= 2, "\(failures) of \(trials) poses worse than 1e-9 (worst \(worst))")
    }

    /// Gravity along the optical axis (looking straight down), opposite to world down
    /// (upside down: the alignment rotation is special-cased) and a yaw of exactly π (the
    /// tan(θ/2) parametrisation's point at infinity).
    @Test(arguments: [SIMD3<Double>(0, 0, 1), SIMD3<Double>(0, 1, 0), SIMD3<Double>(0, -1, 0), SIMD3<Double>(1, 0, 0)])
    func p2pHandlesExtremeCameraAttitudes(down: SIMD3<Double>) throws {
        // A camera whose frame maps world down onto `down`, placed 3 m from the points.
        let yAxis = -down
        let helper: SIMD3<Double> = abs(yAxis.z) < 0.9 ? SIMD3(0, 0, 1) : SIMD3(1, 0, 0)
        let xAxis = normalize(cross(yAxis, helper)), zAxis = cross(xAxis, yAxis)
        // Rows of R_cw are the world axes in camera coordinates: column j = world axis j.
        let r = Matrix3(rows: SIMD3(xAxis.x, yAxis.x, zAxis.x), SIMD3(xAxis.y, yAxis.y, zAxis.y),
                        SIMD3(xAxis.z, yAxis.z, zAxis.z))
        let truth = CameraFromWorld(rotation: r, translation: SIMD3(0.2, -0.1, 3))
        let rt = r.transposed
        let cam: [SIMD3<Double>] = [SIMD3(-0.4, 0.3, 1), SIMD3(0.5, -0.2, 1.2)]
        let world = cam.map { rt * ($0 - truth.translation) }
        let sols = try AbsolutePoseEstimator.p2pUpright(bearings: cam, worldPoints: world, gravity: gravity(of: truth))
        let best = sols.map { maxAbsDifference($0, truth) }.min() ?? .infinity
        #expect(best < 1e-9, "best solution off by \(best)")
    }

    @Test func p2pRejectsCoincidentPoints() throws {
        let world: [SIMD3<Double>] = [SIMD3(0, 0, 5), SIMD3(0, 0, 5)]
        let rays = world.map { $0 / $0.z }
        #expect(try AbsolutePoseEstimator.p2pUpright(bearings: rays, worldPoints: world, gravity: SIMD3(0, -1, 0)).isEmpty)
    }

    /// 7 % inliers: a 2-point sample is all-inlier once in ~200 draws, a 3-point one once in
    /// ~2900, so within 1000 draws gravity finds every pose and P3P misses some.
    @Test func gravityFindsPosesAtInlierRatiosP3PCannot() throws {
        var rng = SplitMix(seed: 23)
        var gravityFound = 0, p3pFound = 0
        let trials = 10
        for trial in 0 ..< trials {
            let scene = SyntheticScene(n: 200, outlierRatio: 0.93, noise: 1, rng: &rng)
            let e = AbsolutePoseEstimator(options: RansacOptions(threshold: 4, maxIterations: 1000, seed: UInt64(trial)))
            func right(_ est: PoseEstimate?) -> Bool {
                guard let est else { return false }
                return rotationErrorDegrees(est.cameraFromWorld.rotation, scene.truth.rotation) < 0.5
                    && length(est.cameraFromWorld.translation - scene.truth.translation) < 0.1
            }
            let g = try? e.estimate(pixels: scene.pixels, worldPoints: scene.world, camera: testCamera,
                                    gravity: gravity(of: scene.truth))
            let p = try? e.estimate(pixels: scene.pixels, worldPoints: scene.world, camera: testCamera)
            if right(g) { gravityFound += 1 }
            if right(p) { p3pFound += 1 }
        }
        #expect(gravityFound == trials)
        #expect(p3pFound < trials, "the data should be hard for P3P in this budget (\(p3pFound) of \(trials))")
    }

    /// A phone's gravity is off by a fraction of a degree; the free 6-DoF refinement must
    /// recover the pose the image supports, not keep the gravity error.
    @Test func slightlyWrongGravityStillGivesTheImagePose() throws {
        var rng = SplitMix(seed: 29)
        for trial in 0 ..< 10 {
            let scene = SyntheticScene(n: 200, outlierRatio: 0.5, noise: 1, rng: &rng)
            let tilt = Quaternion(axis: normalize(SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())),
                                  angle: 1.5 * .pi / 180)
            let g = tilt.matrix * gravity(of: scene.truth)
            let est = try AbsolutePoseEstimator(options: RansacOptions(seed: UInt64(trial)))
                .estimate(pixels: scene.pixels, worldPoints: scene.world, camera: testCamera, gravity: g)
            #expect(rotationErrorDegrees(est.cameraFromWorld.rotation, scene.truth.rotation) < 0.3)
            #expect(est.inlierCount >= 95)
        }
    }

    @Test(arguments: [SIMD3<Double>(0, 0, 0), SIMD3<Double>(.nan, 1, 0), SIMD3<Double>(.infinity, 0, 0)])
    func badGravityIsATypedError(g: SIMD3<Double>) throws {
        var rng = SplitMix(seed: 31)
        let scene = SyntheticScene(n: 20, rng: &rng)
        let error = try #require(throws: VisionError.self) {
            try AbsolutePoseEstimator().estimate(pixels: scene.pixels, worldPoints: scene.world, camera: testCamera,
                                                 gravity: g)
        }
        #expect(error.code == .invalidArgument)
        let solver = try #require(throws: VisionError.self) {
            try AbsolutePoseEstimator.p2pUpright(bearings: [SIMD3(0, 0, 1), SIMD3(0.1, 0, 1)],
                                                 worldPoints: [SIMD3(0, 0, 3), SIMD3(0.3, 0, 3)], gravity: g)
        }
        #expect(solver.code == .invalidArgument)
    }
}
