import Foundation
import Geodesy
import Geometry
import MapModel
import Storage
import Testing
import TestSupport
import VPSModel

/// `map build --gcp` as a surveyor uses it, against exact truth: landmarks of a synthetic
/// street (whose true georeference the session records) are "surveyed" through that
/// georeference and "clicked" in the frames that see them (their true projections, a
/// fraction of a pixel off, in OpenSfM's normalized coordinates); the map built from them
/// must lie where the street truly is. The frames also carry GPS readings of 20 m accuracy:
/// were they mixed in, the fit would be metres off.
@Suite struct GroundControlPointCommandTests {
    @Test func aMapBuiltWithGroundControlPointsLiesWhereTheStreetIs() async throws {
        let dir = URL(fileURLWithPath: try makeScratchDirectory("gcp"), isDirectory: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = dir.appendingPathComponent("street")
        let synth = try await ArcloudProcess.runOffThread([
            "dataset", "synth", session.path, "--layout", "street", "--seed", "5", "--session-seed", "61",
            "--frames", "30", "--georef", "52.3731,4.8922,2.5,30", "--gps-noise", "20"])
        #expect(synth.status == 0, "\(synth.stderr)")
        let recorded = try RecordedSession.load(from: session)
        let truth = try #require(recorded.georeference)
        let camera = recorded.camera
        let posed = recorded.frames.filter { $0.pose != nil }

        // Landmarks beside the path: 10 m ahead of a frame, 3 m to a side, 1 m up or down.
        var points: [[String: Any]] = []
        for (n, i) in [4, 9, 14, 19, 24].enumerated() {
            let pose = try #require(posed[i].pose)
            let landmark = pose.apply(SIMD3(n % 2 == 0 ? -3 : 3, n % 2 == 0 ? 1 : -1, 10))
            var observations: [[String: Any]] = []
            for (j, f) in posed.enumerated() {
                guard let p = MapGeometry.project(landmark, pose: f.pose!, intrinsics: camera),
                      f.pose!.inverse.apply(landmark).z > 1, camera.contains(p) else { continue }
                // A click a fraction of a pixel off, the same way every time.
                let clicked = p + SIMD2(j % 2 == 0 ? 0.3 : -0.3, j % 3 == 0 ? 0.2 : -0.2)
                let w = Double(camera.width), h = Double(camera.height), side = max(w, h)
                let projection = (clicked + 0.5 - SIMD2(w, h) / 2) / side
                observations.append(["shot_id": (f.image as NSString).lastPathComponent,
                                     "projection": [projection.x, projection.y]])
            }
            #expect(observations.count >= 2, "landmark \(n) is seen in \(observations.count) frames")
            let position = truth.position(ofMapPoint: landmark)
            var lla: [String: Any] = ["latitude": position.latitude, "longitude": position.longitude]
            // One point surveyed without its height places the map horizontally only.
            if n != 2 { lla["altitude"] = position.height }
            points.append(["id": "gcp-\(n)", "position": lla, "observations": observations])
        }
        // Seen once it cannot be triangulated: refused, by name. An image not in the build is reported.
        let lonely = try #require(posed[12].pose).apply(SIMD3(0, 0, 6))
        let lonelyAt = truth.position(ofMapPoint: lonely)
        points.append(["id": "gcp-lonely",
                       "position": ["latitude": lonelyAt.latitude, "longitude": lonelyAt.longitude, "altitude": lonelyAt.height],
                       "observations": [["shot_id": posed[12].id, "projection": [0.0, 0.0]],
                                        ["shot_id": "not-in-this-build.jpg", "projection": [0.1, 0.1]]]])
        let gcpFile = dir.appendingPathComponent("ground_control_points.json")
        try JSONSerialization.data(withJSONObject: ["points": points], options: [.prettyPrinted]).write(to: gcpFile)

        let map = dir.appendingPathComponent("street.vpsmap").path
        let build = try await ArcloudProcess.runOffThread(["map", "build", "--session", session.path, "--out", map,
                                                           "--gcp", gcpFile.path])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stderr.contains("ground control point 'gcp-lonely' refused: seen in 1 of the build's frames"),
                "\(build.stderr)")
        #expect(build.stderr.contains("not-in-this-build.jpg"), "\(build.stderr)")
        let inspect = try ArcloudProcess.run(["map", "inspect", map])
        #expect(inspect.stdout.contains("georeference controlPoints: origin 52.37")
                && inspect.stdout.contains("from 5 ground control points"), "\(inspect.stdout)")

        let g = try #require(try VPSMap.load(from: map).metadata.georeference)
        #expect(g.source == .controlPoints && g.scale == 1)
        // Positions through the fitted and the true georeference, compared in the true ENU frame.
        var worst = 0.0
        let start = try #require(posed.first?.pose).center, end = try #require(posed.last?.pose).center
        let across = normalize(cross(end - start, SIMD3(0, 1, 0)))
        for p in [start, end, start + 20 * across, (start + end) / 2 + SIMD3(0, 10, 0)] {
            let fitted = truth.frame.enu(of: g.position(ofMapPoint: p))
            worst = max(worst, length(fitted - truth.enu(ofMapPoint: p)))
        }
        let east = SIMD3<Double>(1, 0, 0)
        let heading = { (r: Quaternion) -> Double in let v = r.rotate(east); return atan2(v.x, v.y) * 180 / .pi }
        var headingError = abs(heading(g.rotation) - heading(truth.rotation))
        headingError = min(headingError, 360 - headingError)
        #expect(worst < 0.05, "a map point lies \(worst) m from where it truly is")
        #expect(headingError < 0.1, "heading off by \(headingError)°")
        // The clicks' fraction of a pixel, not the unsurveyed height of gcp-2, is all that is left.
        let r = try #require(g.residuals)
        #expect(r.inliers == 5 && r.horizontalRMS < 0.05 && r.verticalRMS < 0.05, "\(r)")
        print("gcp fit: worst position error \(worst) m, heading error \(headingError)°, "
              + "residual RMS \(r.horizontalRMS) m horizontal, \(r.verticalRMS) m vertical")
    }
}
