import Evaluation
import Foundation
import Geometry
import Testing
import TestSupport
import VPSModel

/// Photos with GPS in their EXIF, as a phone takes them, reconstructed by another tool in
/// its own units and frame (a COLMAP model: scale 0.37, turned arbitrarily): `map build
/// --colmap` georeferences the map from the photos' EXIF alone (finding scale and a full
/// rotation), `dataset import-colmap` gives the query photos their readings, and
/// `localize` scores the GeoPoses against each photo's own GPS.
@Suite struct EXIFGeoCommandTests {
    /// The model's frame: map point x becomes scale · rotation · x + translation.
    static let scale = 0.37
    static let rotation = Quaternion(axis: SIMD3(0.3, -0.8, 0.5), angle: 2.1)
    static let translation = SIMD3<Double>(4, -1, 7)

    /// Writes `session` as a COLMAP text model (`sparse/0`) in the model's frame, its
    /// images (`images/IMG_1000.jpg`…) carrying the frames' GPS readings in their EXIF,
    /// with GPSHPositioningError when `statesError`.
    static func colmapProject(of session: URL, in project: URL, statesError: Bool) throws {
        let s = try RecordedSession.load(from: session)
        let model = project.appendingPathComponent("sparse/0"), images = project.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let k = s.camera
        #expect(k.distortion.allSatisfy { $0 == 0 })
        try "1 PINHOLE \(k.width) \(k.height) \(k.fx) \(k.fy) \(k.cx) \(k.cy)\n"
            .write(to: model.appendingPathComponent("cameras.txt"), atomically: true, encoding: .utf8)
        var lines = ""
        for (i, f) in s.frames.enumerated() {
            let pose = try #require(f.pose), gps = try #require(f.gps)
            let name = "IMG_\(1000 + i).jpg"
            let moved = Pose(rotation: rotation * pose.rotation, translation: scale * rotation.rotate(pose.center) + translation)
            let cw = moved.inverse
            lines += "\(i + 1) \(cw.rotation.w) \(cw.rotation.x) \(cw.rotation.y) \(cw.rotation.z) "
                + "\(cw.translation.x) \(cw.translation.y) \(cw.translation.z) 1 \(name)\n\n"
            let jpeg = try Data(contentsOf: session.appendingPathComponent(f.image))
            try EXIFGPSWriter.insert(into: jpeg, latitude: gps.position.latitude, longitude: gps.position.longitude,
                                     altitude: gps.position.height, horizontalError: statesError ? gps.accuracy : nil)
                .write(to: images.appendingPathComponent(name))
        }
        try lines.write(to: model.appendingPathComponent("images.txt"), atomically: true, encoding: .utf8)
    }

    @Test func photosEXIFGPSGeoreferencesAColmapMapAndScoresTheGeoPoses() async throws {
        let dir = URL(fileURLWithPath: try makeScratchDirectory("exif-geo"), isDirectory: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // GPS of 8 m accuracy (95 %): 3.3 m per axis.
        let street = ["--layout", "street", "--seed", "5", "--georef", "52.3731,4.8922,2.5,30", "--gps-noise", "8"]
        let mapping = dir.appendingPathComponent("mapping"), walk = dir.appendingPathComponent("walk")
        let m = try await ArcloudProcess.runOffThread(["dataset", "synth", mapping.path] + street
                                                      + ["--session-seed", "61", "--frames", "45"])
        #expect(m.status == 0, "\(m.stderr)")
        let w = try await ArcloudProcess.runOffThread(["dataset", "synth", walk.path] + street
                                                      + ["--session-seed", "52", "--trajectory", "walk", "--frames", "12"])
        #expect(w.status == 0, "\(w.stderr)")
        try Self.colmapProject(of: mapping, in: dir.appendingPathComponent("mapping-colmap"), statesError: true)
        try Self.colmapProject(of: walk, in: dir.appendingPathComponent("walk-colmap"), statesError: false)

        let map = dir.appendingPathComponent("street.vpsmap").path
        let build = try await ArcloudProcess.runOffThread(["map", "build", "--colmap",
                                                           dir.appendingPathComponent("mapping-colmap/sparse/0").path,
                                                           "--out", map, "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let inspect = try ArcloudProcess.run(["map", "inspect", map])
        #expect(inspect.stdout.contains("georeference gps: origin 52.37"), "\(inspect.stdout)")

        let session = dir.appendingPathComponent("walk-session")
        let imported = try ArcloudProcess.run(["dataset", "import-colmap", dir.appendingPathComponent("walk-colmap/sparse/0").path,
                                               session.path])
        #expect(imported.status == 0 && imported.stdout.contains("12 frames with poses from a text model, 12 with EXIF GPS"),
                "\(imported.stdout)\(imported.stderr)")
        let run = dir.appendingPathComponent("run")
        let r = try await ArcloudProcess.runOffThread(["localize", "--map", map, session.path, "--out", run.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("GeoPose vs GPS"), "\(r.stdout)")
        let data = try Data(contentsOf: run.appendingPathComponent("summary.json"))
        let summary = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let check = try #require(summary["geoPosesToGPS"] as? [String: Any], "\(summary.keys)")
        let frames = try #require(check["frames"] as? Int), median = try #require(check["medianHorizontalDistance"] as? Double)
        // Each reading is 3.3 m per axis off the truth (4 m median distance): a fit off by
        // more than a few metres, or a wrong roll or scale, puts the median beyond 8 m.
        #expect(frames >= 9 && median < 8, "\(check)")

        // Against the truth the walk's session knows: every GeoPose within 4 m of where
        // the camera was (the fit's own error, the readings' noise averaged over 45).
        let truth = try #require(try RecordedSession.load(from: walk).georeference)
        let original = try RecordedSession.load(from: walk).frames
        var errors: [Double] = []
        for o in try RunResults.load(from: run) {
            guard o.result.isLocalized, let geo = o.result.geoPose, let n = Int(o.frameId.dropFirst(4)) else { continue }
            let camera = try #require(original[n - 1000].pose).center
            let d = truth.frame.enu(of: geo.position) - truth.enu(ofMapPoint: camera)
            errors.append((d.x * d.x + d.y * d.y).squareRoot())
        }
        #expect(errors.count == frames && (errors.max() ?? .infinity) < 4, "\(errors)")
    }
}
