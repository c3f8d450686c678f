import Geometry
import Testing
import Vision
import TestSupport

@Suite struct TriangulationTests {
    let cam = testCamera

    func views() -> [CameraView] {
        [CameraView(pose: .lookAt(eye: SIMD3(0, 0, 0), target: SIMD3(0, 0, 10)), intrinsics: cam),
         CameraView(pose: .lookAt(eye: SIMD3(1, 0, 0), target: SIMD3(0, 0, 10)), intrinsics: cam),
         CameraView(pose: .lookAt(eye: SIMD3(0, 0.8, -0.5), target: SIMD3(0.5, 0, 10)), intrinsics: cam)]
    }

    func project(_ x: SIMD3<Double>, _ v: CameraView) -> SIMD2<Double> {
        cam.project(CameraFromWorld(v.pose).apply(x))!
    }

    @Test func exactPointsAreRecovered() throws {
        var rng = SplitMix(seed: 1)
        let vs = views()
        for _ in 0 ..< 100 {
            let x = SIMD3(Double.random(in: -2 ... 2, using: &rng), Double.random(in: -1.5 ... 1.5, using: &rng),
                          Double.random(in: 5 ... 12, using: &rng))
            let multi = try Triangulator().triangulate(views: vs, pixels: vs.map { project(x, $0) })
            #expect(multi.status == .ok)
            #expect(length(multi.position - x) < 1e-9)
            #expect(multi.errors.count == 3 && multi.maxError < 1e-6)
            let two = try Triangulator().triangulate(views: Array(vs[0 ..< 2]), pixels: vs[0 ..< 2].map { project(x, $0) })
            #expect(length(two.position - x) < 1e-9)
        }
    }

    @Test func noisyPointsAreCloseAndRefinementHelps() throws {
        var rng = SplitMix(seed: 2)
        let vs = views()
        var errRefined = 0.0, errLinear = 0.0
        for _ in 0 ..< 200 {
            let x = SIMD3(Double.random(in: -2 ... 2, using: &rng), Double.random(in: -1.5 ... 1.5, using: &rng),
                          Double.random(in: 5 ... 12, using: &rng))
            let px = vs.map { project(x, $0) + SIMD2(rng.gaussian(), rng.gaussian()) }
            let r = try Triangulator(maxError: 10).triangulate(views: vs, pixels: px)
            let l = try Triangulator(maxError: 10, refine: false).triangulate(views: vs, pixels: px)
            #expect(r.status == .ok)
            #expect(length(r.position - x) < 0.1 * x.z)
            errRefined += r.errors.map { $0 * $0 }.reduce(0, +)
            errLinear += l.errors.map { $0 * $0 }.reduce(0, +)
        }
        // Gauss–Newton minimises reprojection error, DLT an algebraic one.
        #expect(errRefined <= errLinear)
    }

    @Test func pointBehindTheCamerasIsRejected() throws {
        // Both cameras look along +z (image right is world −x with +y up). Rays that diverge
        // in front of the cameras meet behind them: the DLT point fails cheirality.
        let a = CameraView(pose: .lookAt(eye: SIMD3(0, 0, 0), target: SIMD3(0, 0, 1)), intrinsics: cam)
        let b = CameraView(pose: .lookAt(eye: SIMD3(1, 0, 0), target: SIMD3(1, 0, 1)), intrinsics: cam)
        let out = try Triangulator().triangulate(views: [a, b], pixels: [SIMD2(340, 240), SIMD2(300, 240)])
        #expect(out.status == .behindCamera)
        #expect(out.position.z < 0)
        // Swapping the observations makes the rays converge in front: accepted.
        let front = try Triangulator().triangulate(views: [a, b], pixels: [SIMD2(300, 240), SIMD2(340, 240)])
        #expect(front.status == .ok)
        #expect(abs(front.position.z - 12.5) < 1e-9)
    }

    @Test func lowParallaxIsRejected() throws {
        let a = CameraView(pose: .lookAt(eye: SIMD3(0, 0, 0), target: SIMD3(0, 0, 100)), intrinsics: cam)
        let b = CameraView(pose: .lookAt(eye: SIMD3(0.05, 0, 0), target: SIMD3(0.05, 0, 100)), intrinsics: cam)
        let x = SIMD3(0.0, 0.0, 50.0)
        let r = try Triangulator(minParallaxDegrees: 1).triangulate(views: [a, b], pixels: [project(x, a), project(x, b)])
        #expect(r.status == .lowParallax)
        #expect(r.parallaxDegrees < 0.1)
    }

    @Test func highErrorIsRejectedAndPairsBatchAgrees() throws {
        let vs = views()
        let xs = [SIMD3(0.1, 0.2, 7.0), SIMD3(-1, 0.5, 9.0), SIMD3(1.5, -1, 6.0)]
        var pa = xs.map { project($0, vs[0]) }
        let pb = xs.map { project($0, vs[1]) }
        pa[2].y += 30  // inconsistent observation
        let rs = try Triangulator().triangulatePairs(vs[0], vs[1], pixelsA: pa, pixelsB: pb)
        #expect(rs.count == 3)
        #expect(rs[0].isValid && rs[1].isValid)
        #expect(length(rs[1].position - xs[1]) < 1e-9)
        #expect(rs[2].status == .highError)
    }
}
