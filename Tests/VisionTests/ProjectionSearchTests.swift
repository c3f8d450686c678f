import Testing
import Geometry
@testable import Vision

/// Guided candidate search by projection, with and without a local-map subset.
@Suite struct ProjectionSearchTests {
    let camera = CameraIntrinsics(width: 640, height: 480, fx: 500, fy: 500, cx: 320, cy: 240)
    let identity = CameraFromWorld(rotation: .identity, translation: .zero)

    /// Point i sits 2 m ahead and projects to pixel (100 + 40 i, 240).
    func world(_ count: Int) -> [Double] {
        (0..<count).flatMap { i -> [Double] in [Double(100 + 40 * i - 320) * 2 / 500, 0, 2] }
    }

    func lists(_ l: CandidateLists) -> [[Int]] {
        (0..<l.queryCount).map { q in (Int(l.offsets[q])..<Int(l.offsets[q + 1])).map { Int(l.indices[$0]) } }
    }

    @Test func keypointsGetThePointsProjectedNearThem() throws {
        let points = world(10)
        // Keypoint 0 sits 3 px from point 2's projection; keypoint 1 between points 4 and 5
        // (20 px from each); keypoint 2 far from every point.
        let keypoints = [Keypoint(x: 183, y: 240), Keypoint(x: 280, y: 240), Keypoint(x: 600, y: 50)]
        let search = ProjectionSearch(radius: 25, maxCandidatesPerKeypoint: 8)
        let l = lists(try search.candidates(prior: identity, camera: camera, worldPoints: points, keypoints: keypoints))
        #expect(l[0] == [2])
        #expect(Set(l[1]) == [4, 5])
        #expect(l[2].isEmpty)
        // At most one candidate: the nearest.
        let one = ProjectionSearch(radius: 25, maxCandidatesPerKeypoint: 1)
        #expect(lists(try one.candidates(prior: identity, camera: camera, worldPoints: points,
                                         keypoints: [Keypoint(x: 278, y: 240)])) == [[4]])
    }

    @Test func pointsBehindTheCameraOrSeenFromBehindAreSkipped() throws {
        var points = world(2)
        points[5] = -2  // point 1 behind the camera
        // Point 0 was mapped looking along +z (seen from the front now); give it a direction
        // pointing back at the camera instead: seen from behind, it is skipped.
        let keypoints = [Keypoint(x: 100, y: 240), Keypoint(x: 140, y: 240)]
        let search = ProjectionSearch(radius: 5)
        let front = lists(try search.candidates(prior: identity, camera: camera, worldPoints: points,
                                                viewingDirections: [0, 0, 1, 0, 0, 1], keypoints: keypoints))
        #expect(front == [[0], []])
        let back = lists(try search.candidates(prior: identity, camera: camera, worldPoints: points,
                                               viewingDirections: [0, 0, -1, 0, 0, 1], keypoints: keypoints))
        #expect(back == [[], []])
    }

    @Test func aSubsetLimitsTheSearchAndKeepsGlobalIndices() throws {
        let points = world(10)
        let keypoints = (0..<10).map { Keypoint(x: Float(100 + 40 * $0), y: 240) }
        let search = ProjectionSearch(radius: 5)
        let all = lists(try search.candidates(prior: identity, camera: camera, worldPoints: points, keypoints: keypoints))
        #expect(all == (0..<10).map { [$0] })
        let some = lists(try search.candidates(prior: identity, camera: camera, worldPoints: points, subset: [3, 7],
                                               keypoints: keypoints))
        #expect(some == (0..<10).map { $0 == 3 || $0 == 7 ? [$0] : [] })
        let none = lists(try search.candidates(prior: identity, camera: camera, worldPoints: points, subset: [],
                                               keypoints: keypoints))
        #expect(none == Array(repeating: [], count: 10))
    }

    @Test func subsetIndicesOutOfRangeAreRejected() {
        let points = world(3)
        for bad: Int32 in [-1, 3] {
            #expect(throws: VisionError.self) {
                try ProjectionSearch().candidates(prior: identity, camera: camera, worldPoints: points, subset: [0, bad],
                                                  keypoints: [Keypoint(x: 100, y: 240)])
            }
        }
    }

    /// Dense clusters fill every keypoint's top-K many times over: the kept lists must be
    /// exactly the K nearest projections within the radius, nearest first (ties by point
    /// index), as a brute-force search over all pairs finds them, at each cell/radius size.
    @Test func keepsTheNearestProjectionsAsBruteForceDoes() throws {
        var state: UInt64 = 0x9E3779B97F4A7C15
        func uniform(_ lo: Double, _ hi: Double) -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return lo + (hi - lo) * Double(state >> 11) / Double(1 << 53)
        }
        // Points 1–4 m ahead projecting into a 120 px square (some just outside the image).
        var points: [Double] = []
        for _ in 0..<3000 {
            let z = uniform(1, 4), u = uniform(-20, 100), v = uniform(200, 320)
            points += [(u - camera.cx) * z / camera.fx, (v - camera.cy) * z / camera.fy, z]
        }
        let keypoints = (0..<400).map { _ in Keypoint(x: Float(uniform(-5, 100)), y: Float(uniform(200, 320))) }
        for (radius, k) in [(2.0, 2), (4.0, 3), (12.0, 6), (20.0, 8)] {
            let search = ProjectionSearch(radius: radius, maxCandidatesPerKeypoint: k)
            let got = lists(try search.candidates(prior: identity, camera: camera, worldPoints: points,
                                                  keypoints: keypoints))
            for (q, kp) in keypoints.enumerated() {
                var hits: [(d2: Float, point: Int)] = []
                for p in 0..<points.count / 3 {
                    let z = points[3 * p + 2]
                    let u = camera.fx * points[3 * p] / z + camera.cx, v = camera.fy * points[3 * p + 1] / z + camera.cy
                    let du = Double(kp.x) - u, dv = Double(kp.y) - v
                    if du * du + dv * dv <= radius * radius { hits.append((Float(du * du + dv * dv), p)) }
                }
                let expected = hits.sorted { ($0.d2, $0.point) < ($1.d2, $1.point) }.prefix(k).map(\.point)
                #expect(got[q] == expected, "keypoint \(q) at \(kp.x),\(kp.y), radius \(radius)")
            }
        }
    }
}
