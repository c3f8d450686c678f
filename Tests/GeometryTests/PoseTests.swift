import Testing
import Geometry

@Suite struct PoseTests {
    let a = Pose(rotation: Quaternion(axis: SIMD3(0.3, 1, -0.2), angle: 0.7), translation: SIMD3(1, -2, 3))
    let b = Pose(rotation: Quaternion(axis: SIMD3(-1, 0.2, 0.5), angle: 2.1), translation: SIMD3(-0.5, 0.25, 4))

    @Test func inverseComposesToIdentity() {
        let e = (a * a.inverse).error(to: .identity)
        #expect(e.translation < 1e-12)
        #expect(e.rotationDegrees < 1e-6)
    }

    @Test func compositionAppliesRightThenLeft() {
        let p = SIMD3<Double>(0.1, 0.2, 0.3)
        #expect(length((a * b).apply(p) - a.apply(b.apply(p))) < 1e-12)
    }

    @Test func quaternionMatrixRoundTrip() {
        for angle in [0.0, 0.5, 3.1, 3.14159] {
            let q = Quaternion(axis: SIMD3(1, -2, 0.5), angle: angle)
            let back = Quaternion(q.matrix)
            #expect(q.angle(to: back) < 1e-7)
            #expect(abs(q.matrix.determinant - 1) < 1e-12)
        }
    }

    @Test func lookAtPointsTheOpticalAxisAtTheTarget() {
        let pose = Pose.lookAt(eye: SIMD3(1, 1.5, 0), target: SIMD3(4, 1.5, 4))
        let inCamera = pose.inverse.apply(SIMD3(4, 1.5, 4))
        #expect(abs(inCamera.x) < 1e-12 && abs(inCamera.y) < 1e-12 && inCamera.z > 0)
        // Map +y (up) must appear upward in the image, i.e. negative camera y.
        let above = pose.inverse.apply(SIMD3(4, 2.5, 4))
        #expect(above.y < 0)
    }

    @Test func tumLineRoundTrip() throws {
        let line = a.tumLine(timestamp: 12.5)
        let parsed = try #require(Pose.parseTUM(Substring(line)))
        #expect(parsed.timestamp == 12.5)
        #expect(parsed.pose.error(to: a).translation < 1e-8)
        #expect(Pose.parseTUM("# comment") == nil)
        #expect(Pose.parseTUM("1 2 3") == nil)
    }

    @Test func intrinsicsProblems() {
        let ok = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240)
        #expect(ok.problem == nil)
        var bad = ok; bad.fx = -1
        #expect(bad.problem != nil)
        bad = ok; bad.cx = 900
        #expect(bad.problem?.contains("principal point") == true)
        bad = ok; bad.distortion = [0.1]
        #expect(bad.problem != nil)
    }
}
