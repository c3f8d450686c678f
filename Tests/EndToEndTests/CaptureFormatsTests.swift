import Foundation
import Geometry
import Testing
import Evaluation
import VPSModel
import TestSupport

/// Bring your own capture, as a user would: nerfstudio and COLMAP captures made from the
/// shipped sessions go through `map build`, `dataset import-*`, `localize` and `compare`.
@Suite struct CaptureFormatsTests {
    static let root = ArcloudProcess.packageRoot

    static func scratch(_ label: String) throws -> URL {
        URL(fileURLWithPath: try makeScratchDirectory(label), isDirectory: true)
    }

    /// A nerfstudio capture of a shipped session: its images under `images/`, and a
    /// transforms.json with camera-to-world matrices in OpenGL camera axes, as Polycam writes.
    static func nerfstudioCapture(of session: String, every stride: Int = 1, in dir: URL) throws -> Int {
        let folder = root.appendingPathComponent("Datasets/\(session)")
        let s = try RecordedSession.load(from: folder)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("images"), withIntermediateDirectories: true)
        var frames: [[String: Any]] = []
        for f in s.frames.enumerated().filter({ $0.offset % stride == 0 }).map(\.element) {
            guard let pose = f.pose else { continue }
            let name = "images/\((f.image as NSString).lastPathComponent)"
            try FileManager.default.copyItem(at: folder.appendingPathComponent(f.image), to: dir.appendingPathComponent(name))
            let r = pose.rotation.matrix, t = pose.translation
            let rows = [r.r0, r.r1, r.r2]
            frames.append(["file_path": name,
                           "transform_matrix": (0..<3).map { i in [rows[i].x, -rows[i].y, -rows[i].z, t[i]] } + [[0, 0, 0, 1]]])
        }
        let k = s.camera
        let json: [String: Any] = ["camera_model": "OPENCV", "fl_x": k.fx, "fl_y": k.fy, "cx": k.cx, "cy": k.cy,
                                   "w": k.width, "h": k.height, "k1": 0, "k2": 0, "p1": 0, "p2": 0, "frames": frames]
        try JSONSerialization.data(withJSONObject: json, options: .prettyPrinted)
            .write(to: dir.appendingPathComponent("transforms.json"))
        return frames.count
    }

    /// A map built from a nerfstudio capture of the mapping session is the map built from
    /// the session itself (same keyframes, same points to within rounding), and localizes
    /// the query walk: were the OpenGL → OpenCV conversion wrong, nothing would triangulate.
    @Test func mapBuiltFromANerfstudioCaptureMatchesTheSessionsMap() throws {
        let dir = try Self.scratch("ns-map")
        defer { try? FileManager.default.removeItem(at: dir) }
        let capture = dir.appendingPathComponent("capture")
        let count = try Self.nerfstudioCapture(of: "gallery-mapping", every: 3, in: capture)
        let map = dir.appendingPathComponent("ns.vpsmap").path, reference = dir.appendingPathComponent("session.vpsmap").path
        let build = try ArcloudProcess.run(["map", "build", "--nerfstudio", capture.path, "--out", map, "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stdout.contains("\(count) keyframes"))
        let session = try ArcloudProcess.run(["map", "build", "--session", "Datasets/gallery-mapping", "--stride", "3",
                                              "--no-scene", "--out", reference, "--quiet"])
        #expect(session.status == 0, "\(session.stderr)")
        func points(_ stdout: String) -> Double? {
            guard let r = stdout.range(of: #"(\d+) points"#, options: .regularExpression) else { return nil }
            return Double(stdout[r].split(separator: " ")[0])
        }
        let a = try #require(points(build.stdout)), b = try #require(points(session.stdout))
        #expect(abs(a - b) <= 0.01 * b, "nerfstudio map \(a) points, session map \(b)")
        #expect(b > 1000)
        // A third of the mapping frames: the session's own map at --stride 3 places 65.7 %
        // of the walk within (5 cm, 2°) (measured 2026-12-01); all frames give the shipped ~97 %.
        let run = dir.appendingPathComponent("run")
        let r = try ArcloudProcess.run(["localize", "--map", map, "Datasets/gallery-query-walk", "--out", run.path,
                                        "--min-recall", "0.6"])
        #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
    }

    @Test func importNerfstudioNamesMissingImagesUnlessSkipped() throws {
        let dir = try Self.scratch("ns-import")
        defer { try? FileManager.default.removeItem(at: dir) }
        let capture = dir.appendingPathComponent("capture")
        let count = try Self.nerfstudioCapture(of: "gallery-query-walk", every: 10, in: capture)
        try FileManager.default.removeItem(at: capture.appendingPathComponent("images/000010.jpg"))
        let failed = try ArcloudProcess.run(["dataset", "import-nerfstudio", capture.appendingPathComponent("transforms.json").path,
                                             dir.appendingPathComponent("s").path])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("frames[1].file_path") && failed.stderr.contains("images/000010.jpg"))
        #expect(failed.stderr.split(separator: "\n").count == 1)
        let out = dir.appendingPathComponent("s")
        let ok = try ArcloudProcess.run(["dataset", "import-nerfstudio", capture.path, out.path, "--skip-missing"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("\(count - 1) frames with poses, 1 frames skipped"))
        let session = try RecordedSession.load(from: out)
        #expect(session.frames.first?.id == "000000" && session.frames.first?.image == "frames/images/000000.jpg")
        let validate = try ArcloudProcess.run(["dataset", "validate", out.path])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
    }

    /// A COLMAP project (`project/sparse/0` text model with CRLF lines, `project/images`)
    /// imports with its image names, and `localize` reports those names in results.jsonl
    /// and poses.txt (world-to-camera, as COLMAP wrote them).
    @Test func colmapProjectImportKeepsImageNamesThroughLocalize() throws {
        let dir = try Self.scratch("colmap-project")
        defer { try? FileManager.default.removeItem(at: dir) }
        let project = dir.appendingPathComponent("project")
        let model = project.appendingPathComponent("sparse/0"), images = project.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let walk = Self.root.appendingPathComponent("Datasets/gallery-query-walk")
        let s = try RecordedSession.load(from: walk)
        let k = s.camera
        try "# Camera list\r\n1 PINHOLE \(k.width) \(k.height) \(k.fx) \(k.fy) \(k.cx) \(k.cy)\r\n"
            .write(to: model.appendingPathComponent("cameras.txt"), atomically: true, encoding: .utf8)
        var lines = "# Image list\r\n"
        var truth: [String: Pose] = [:]
        for (i, f) in s.frames.enumerated() where i % 7 == 0 {
            let name = "IMG_\(1000 + i).jpg"
            try FileManager.default.copyItem(at: walk.appendingPathComponent(f.image), to: images.appendingPathComponent(name))
            let cw = f.pose!.inverse
            truth[name] = cw
            lines += "\(i + 1)\t\(cw.rotation.w) \(cw.rotation.x) \(cw.rotation.y) \(cw.rotation.z) "
                + "\(cw.translation.x) \(cw.translation.y) \(cw.translation.z)\t1\t\(name)\r\n\r\n"
        }
        try lines.write(to: model.appendingPathComponent("images.txt"), atomically: true, encoding: .utf8)

        let session = dir.appendingPathComponent("session")
        let imported = try ArcloudProcess.run(["dataset", "import-colmap", model.path, session.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("\(truth.count) frames with poses from a text model"))
        let run = dir.appendingPathComponent("run")
        let r = try ArcloudProcess.run(["localize", "--map", "Maps/gallery.vpsmap", session.path, "--out", run.path])
        #expect(r.status == 0, "\(r.stderr)")
        let outcomes = try RunResults.load(from: run)
        #expect(Set(outcomes.compactMap(\.image)) == Set(truth.keys.map { "frames/\($0)" }))
        #expect(Set(outcomes.map(\.frameId)) == Set(truth.keys.map { String($0.dropLast(4)) }))
        let poses = try String(contentsOf: run.appendingPathComponent("poses.txt"), encoding: .utf8).split(separator: "\n")
        #expect(poses.count == outcomes.filter(\.result.isLocalized).count)
        #expect(poses.count >= truth.count - 1)
        for line in poses {
            let f = line.split(separator: " ")
            let v = f.dropFirst().compactMap { Double($0) }
            let estimate = Pose(rotation: Quaternion(x: v[1], y: v[2], z: v[3], w: v[0]), translation: SIMD3(v[4], v[5], v[6]))
            let expected = try #require(truth[String(f[0])])
            #expect(estimate.inverse.error(to: expected.inverse).translation < 0.1, "\(f[0])")
        }
    }

    /// Nothing localized (another scene's session): no trajectory.tum for evo to refuse,
    /// the summary says why, and --min-recall fails the run with one line.
    @Test func zeroLocalizedFailsTheGateAndExplainsTheMissingTrajectory() throws {
        let run = try Self.scratch("zero")
        defer { try? FileManager.default.removeItem(at: run) }
        try Data("stale".utf8).write(to: run.appendingPathComponent("trajectory.tum"))
        let r = try ArcloudProcess.run(["localize", "--map", "Maps/gallery.vpsmap", "Datasets/other-scene-query",
                                        "--out", run.path, "--min-recall", "0.5"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("trajectory.tum not written: no frame was localized"))
        // The last line on stderr (progress lines come before it) says why, in one line.
        let last = r.stderr.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        #expect(last == "localize: recall 0 % of frames localized (no ground truth) is below --min-recall 0.5 (50 %)"
                || last.hasPrefix("localize: recall 0 % of frames within"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: run.appendingPathComponent("trajectory.tum").path))
        #expect(try String(contentsOf: run.appendingPathComponent("poses.txt"), encoding: .utf8).isEmpty)
    }

    /// Frame `i` at x = i, localized `error` along x (nil: rejected).
    static func outcome(_ i: Int, _ error: Double?) -> FrameOutcome {
        let gt = Pose(rotation: .identity, translation: SIMD3(Double(i), 0, 0))
        let result = error.map { LocalizationResult(status: .localized, pose: Pose(rotation: .identity, translation: gt.translation + SIMD3($0, 0, 0)), inliers: 50) }
            ?? LocalizationResult(status: .rejected, reason: "too few inliers")
        return FrameOutcome(frameId: "f\(i)", image: "frames/f\(i).jpg", timestamp: Double(i), result: result, groundTruth: gt)
    }

    @Test func compareReportsRegressionsAndGatesOnThem() throws {
        let dir = try Self.scratch("compare")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = [Self.outcome(0, 0.01), Self.outcome(1, 0.01), Self.outcome(2, nil), Self.outcome(3, 0.01)]
        let b = [Self.outcome(0, 0.01), Self.outcome(1, nil), Self.outcome(2, 0.01), Self.outcome(3, 0.20)]
        for (name, outcomes) in [("A", a), ("B", b)] {
            try BatchReport(sessionName: "s", mapName: "m", mode: "single-shot", outcomes: outcomes,
                            summary: AccuracySummary(outcomes: outcomes, wallSeconds: 1)).write(to: dir.appendingPathComponent(name))
        }
        let r = try ArcloudProcess.run(["compare", dir.appendingPathComponent("A").path, dir.appendingPathComponent("B").path])
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("f1") && lines[0].contains("newly lost"))
        #expect(lines[1].hasPrefix("f2") && lines[1].contains("newly found"))
        #expect(lines[2].hasPrefix("f3") && lines[2].contains("worse") && lines[2].contains("1.00 cm, 0.00° → 20.00 cm, 0.00°"))
        #expect(lines[3].contains("4 frames in both runs") && lines[3].contains("2 regressions"))
        #expect(r.stderr.contains("2 regressions, more than --max-regressions 0"))
        let allowed = try ArcloudProcess.run(["compare", dir.appendingPathComponent("A").path, dir.appendingPathComponent("B").path,
                                              "--max-regressions", "2"])
        #expect(allowed.status == 0)
        let notARun = try ArcloudProcess.run(["compare", dir.path, dir.appendingPathComponent("B").path])
        #expect(notARun.status == 1 && notARun.stderr.contains("results.jsonl"))
    }

    /// On a map in unknown units (a COLMAP model) `compare` judges changes in shares of the
    /// scene scale, as `localize` scored the runs, and refuses metres.
    @Test func compareSpeaksTheMapsUnits() throws {
        let dir = try Self.scratch("compare-units")
        defer { try? FileManager.default.removeItem(at: dir) }
        // Scene scale 10 map units: 2 % is 0.2 units. f1 moves from 0.5 % to 3 % (worse by 2.5 %),
        // f2 from 0.5 % to 1.5 %: worse by 1 %, under the 2 % threshold.
        let a = [Self.outcome(0, 0.05), Self.outcome(1, 0.05), Self.outcome(2, 0.05)]
        let b = [Self.outcome(0, 0.05), Self.outcome(1, 0.30), Self.outcome(2, 0.15)]
        for (name, outcomes) in [("A", a), ("B", b)] {
            try BatchReport(sessionName: "s", mapName: "m", mode: "single-shot", outcomes: outcomes,
                            summary: AccuracySummary(outcomes: outcomes, wallSeconds: 1, thresholds: ErrorThreshold.relative(to: 10)))
                .write(to: dir.appendingPathComponent(name))
        }
        try BatchReport(sessionName: "s", mapName: "m", mode: "single-shot", outcomes: b,
                        summary: AccuracySummary(outcomes: b, wallSeconds: 1)).write(to: dir.appendingPathComponent("metric"))
        let runA = dir.appendingPathComponent("A").path, runB = dir.appendingPathComponent("B").path
        let r = try ArcloudProcess.run(["compare", runA, runB])
        #expect(r.status == 1, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(r.stdout)")
        #expect(lines[0].hasPrefix("f1") && lines[0].contains("worse")
                && lines[0].contains("0.50 % of scene scale, 0.00° → 3.00 % of scene scale, 0.00°"), "\(r.stdout)")
        #expect(lines[1].contains("within (2 % of scene scale, 2°) 100.0 % → 66.7 %") && lines[1].contains("1 regressions"))
        // A tighter share sees f2 too; a looser one sees nothing.
        let tight = try ArcloudProcess.run(["compare", runA, runB, "--threshold-percent", "0.5"])
        #expect(tight.stdout.contains("2 regressions"), "\(tight.stdout)")
        #expect(try ArcloudProcess.run(["compare", runA, runB, "--threshold-percent", "5"]).status == 0)
        // Metres mean nothing on this map; nor do runs scored in different units compare.
        let cm = try ArcloudProcess.run(["compare", runA, runB, "--threshold-cm", "5"])
        #expect(cm.status == 2 && cm.stderr.contains("--threshold-percent"), "\(cm.stderr)")
        let mixed = try ArcloudProcess.run(["compare", runA, dir.appendingPathComponent("metric").path])
        #expect(mixed.status == 1 && mixed.stderr.contains("not runs on the same map"), "\(mixed.stderr)")
    }
}
