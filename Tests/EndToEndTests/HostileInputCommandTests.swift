import Foundation
import Testing
import Vision
import Baselines
import Evaluation
import Storage
import VPSModel

/// The commands on hostile input: paths that leave their folder, sessions that cannot
/// localize, absurd values, damaged images, oversized scripts, outputs that cannot be
/// written, flags that swallow flags. Each value is refused where it is read, by every
/// command that reads it, with one line naming the file, the field and the bound.
@Suite struct HostileInputCommandTests {
    static let map = "Maps/gallery.vpsmap"
    static let walk = ArcloudProcess.packageRoot.appendingPathComponent("Datasets/gallery-query-walk")

    /// `scratch/session/` with the walk's first `count` frames (images copied), and
    /// `scratch/other/` with copies of the same images; `edit` changes the session.
    static func scratchSession(frames count: Int = 3, _ edit: (inout RecordedSession) -> Void = { _ in })
        throws -> (root: URL, session: URL) {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        let dir = root.appendingPathComponent("session")
        try fm.createDirectory(at: dir.appendingPathComponent("frames"), withIntermediateDirectories: true)
        try fm.createDirectory(at: root.appendingPathComponent("other/frames"), withIntermediateDirectories: true)
        var session = try RecordedSession.load(from: walk)
        session.frames = Array(session.frames.prefix(count))
        session.script = nil
        for f in session.frames {
            try fm.copyItem(at: walk.appendingPathComponent(f.image), to: dir.appendingPathComponent(f.image))
            try fm.copyItem(at: walk.appendingPathComponent(f.image), to: root.appendingPathComponent("other/" + f.image))
        }
        edit(&session)
        try session.write(toDirectory: dir)
        return (root, dir)
    }

    static func outcomes(in out: URL) throws -> [FrameOutcome] {
        try String(contentsOf: out.appendingPathComponent(BatchReport.File.results), encoding: .utf8)
            .split(separator: "\n").map { try JSONDecoder().decode(FrameOutcome.self, from: Data($0.utf8)) }
    }

    // MARK: Paths

    @Test func localizeDoesNotReadFramesOutsideTheSession() throws {
        let (root, dir) = try Self.scratchSession { $0.frames[1].image = "../other/" + $0.frames[1].image }
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("out")
        let r = try ArcloudProcess.run(["localize", "--map", Self.map, dir.path, "--out", out.path, "--workers", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let outcomes = try Self.outcomes(in: out)
        #expect(outcomes.count == 3)
        #expect(outcomes[1].result.status == .rejected)
        #expect(outcomes[1].result.reason?.contains("leaves the folder") == true, "\(String(describing: outcomes[1].result.reason))")
        #expect(outcomes[0].result.isLocalized)
    }

    @Test func simulateDoesNotReadFramesOutsideTheSession() throws {
        let (root, dir) = try Self.scratchSession(frames: 2) { $0.frames[0].image = "../other/" + $0.frames[0].image }
        defer { try? FileManager.default.removeItem(at: root) }
        let r = try ArcloudProcess.run(["simulate", dir.path, "--map", Self.map, "--interval", "0.01"])
        let failed = r.stdout.split(separator: "\n").filter { $0.contains("\"event\":\"localization.failed\"") }
        #expect(failed.count == 1, "\(r.stdout)")
        #expect(failed.first?.contains("frameUnavailable") == true)
        #expect(failed.first?.contains("leaves the folder") == true, "\(failed)")
        // The second frame was still sent.
        #expect(r.stdout.contains("\"vpsRequests\":2"), "\(r.stdout.suffix(600))")
    }

    /// `root/sparse/` holding a COLMAP text model of these two files, beside an empty `root/images/`.
    static func colmapProject(cameras: String, images: String) throws -> (root: URL, model: URL) {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("hostile-colmap-\(UUID().uuidString)")
        let model = root.appendingPathComponent("sparse")
        try fm.createDirectory(at: model, withIntermediateDirectories: true)
        try fm.createDirectory(at: root.appendingPathComponent("images"), withIntermediateDirectories: true)
        try Data(cameras.utf8).write(to: model.appendingPathComponent("cameras.txt"))
        try Data(images.utf8).write(to: model.appendingPathComponent("images.txt"))
        return (root, model)
    }

    @Test func importColmapDoesNotCopyFilesFromOutside() throws {
        let fm = FileManager.default
        let (root, model) = try Self.colmapProject(cameras: "1 PINHOLE 640 480 500 500 320 240\n",
                                                   images: "1 1 0 0 0 0 0 0 1 ../../../../../../../../etc/passwd\n\n")
        defer { try? fm.removeItem(at: root) }
        let out = root.appendingPathComponent("imported")
        let r = try ArcloudProcess.run(["dataset", "import-colmap", model.path, out.path])
        #expect(r.status == 1, "\(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains("leaves the folder"), "\(r.stderr)")
        let copied = (try? fm.contentsOfDirectory(atPath: out.appendingPathComponent("frames").path)) ?? []
        #expect(copied.isEmpty)
    }

    @Test func missingOrFIFOCOLMAPFilesAreOneLineErrors() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-nomodel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("m.vpsmap").path
        let build = try ArcloudProcess.run(["map", "build", "--colmap", root.path, "--images", root.path, "--out", out], timeout: 120)
        let imported = try ArcloudProcess.run(["dataset", "import-colmap", root.path, root.appendingPathComponent("s").path], timeout: 120)
        for r in [build, imported] {
            #expect(r.status == 1, "\(r.stderr)")
            #expect(r.stderr.contains(root.path) && r.stderr.contains("no COLMAP model"), "\(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1 && !r.stderr.contains("NSCocoaErrorDomain"), "\(r.stderr)")
        }
        // A FIFO is never opened (opening it would wait for a writer forever).
        try "1 PINHOLE 640 480 500 500 320 240\n".write(to: root.appendingPathComponent("cameras.txt"), atomically: true, encoding: .utf8)
        #expect(mkfifo(root.appendingPathComponent("images.txt").path, 0o644) == 0)
        let fifo = try ArcloudProcess.run(["map", "build", "--colmap", root.path, "--images", root.path, "--out", out], timeout: 120)
        #expect(fifo.status == 1 && fifo.stderr.contains("images.txt") && fifo.stderr.contains("FIFO"), "\(fifo.stderr)")
    }

    // MARK: Sessions that cannot localize

    @Test func localizeFailsForAnInvalidCameraOrNoFrames() throws {
        let (root, dir) = try Self.scratchSession { $0.camera.width = -640 }
        defer { try? FileManager.default.removeItem(at: root) }
        let r = try ArcloudProcess.run(["localize", "--map", Self.map, dir.path, "--out", root.appendingPathComponent("o1").path])
        #expect(r.status == 1, "\(r.stdout)")
        #expect(r.stderr.contains("camera"), "\(r.stderr)")

        let (root2, empty) = try Self.scratchSession { $0.frames = [] }
        defer { try? FileManager.default.removeItem(at: root2) }
        let e = try ArcloudProcess.run(["localize", "--map", Self.map, empty.path, "--out", root2.appendingPathComponent("o2").path])
        #expect(e.status == 1, "\(e.stdout)")
        #expect(e.stderr.contains("no frames"), "\(e.stderr)")
    }

    @Test func simulateRefusesATimeTheClockCannotHold() throws {
        let (root, dir) = try Self.scratchSession(frames: 2) { $0.frames[1].timestamp = 1e308 }
        defer { try? FileManager.default.removeItem(at: root) }
        let r = try ArcloudProcess.run(["simulate", dir.path, "--map", Self.map])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("session.json: frames[1].timestamp") && r.stderr.contains("±1e12 s"), "\(r.stderr)")
        let v = try ArcloudProcess.run(["dataset", "validate", dir.path])
        #expect(v.status == 1)
        // The file, the field and the bound.
        #expect(v.stdout.contains("session.json: frames[1].timestamp: timestamp of frame '000001': 1e+308 s is beyond ±1e12 s"),
                "\(v.stdout) \(v.stderr)")
    }

    @Test func simulateFailsForASessionWithNoFrames() throws {
        let (root, dir) = try Self.scratchSession { $0.frames = [] }
        defer { try? FileManager.default.removeItem(at: root) }
        let r = try ArcloudProcess.run(["simulate", dir.path, "--map", Self.map])
        #expect(r.status == 1, "\(r.stdout)")
        #expect(r.stderr == "arcloud: simulate: \(dir.path)/session.json: frames: the session has no frames\n", "\(r.stderr)")
    }

    // MARK: Absurd values

    /// A camera no lens has — finite and positive, so it passed before — is refused by every
    /// command that reads a session's camera, in the same words.
    @Test func absurdSessionCamerasAreRefusedByEveryCommand() throws {
        let cases: [(String, (inout RecordedSession) -> Void)] = [
            ("1° to 179°", { $0.camera.fx = 1e-300 }),
            ("0.1× to 10×", { $0.camera.distortion = [1e300, 0, 0, 0] }),
        ]
        for (bound, edit) in cases {
            let (root, dir) = try Self.scratchSession(frames: 2, edit)
            defer { try? FileManager.default.removeItem(at: root) }
            let validate = try ArcloudProcess.run(["dataset", "validate", dir.path])
            #expect(validate.status == 1 && validate.stdout.hasPrefix("session.json: camera: ") && validate.stdout.contains(bound),
                    "\(validate.stdout)")
            for command in [["localize", "--map", Self.map, dir.path, "--out", root.appendingPathComponent("out").path],
                            ["simulate", dir.path, "--map", Self.map]] {
                let r = try ArcloudProcess.run(command)
                #expect(r.status == 1, "\(command[0]): \(r.stdout)")
                #expect(r.stderr.contains("\(dir.path)/session.json: camera: ") && r.stderr.contains(bound), "\(command[0]): \(r.stderr)")
                #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            }
        }
    }

    /// A map keyframe's intrinsics go through the same check when the map is loaded.
    @Test func anAbsurdKeyframeFocalLengthIsRefusedByEveryCommand() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-keyframe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let map = root.appendingPathComponent("kf.vpsmap")
        try FileManager.default.copyItem(at: ArcloudProcess.packageRoot.appendingPathComponent(Self.map), to: map)
        try SQLiteDatabase(path: map.path, mode: .readWrite).execute("UPDATE keyframes SET fx = 1e-300 WHERE id = 0")
        let named = "table keyframes, row 0, columns width…distortion: fx = 1e-300 px gives a horizontal field of view of 180°"
        let inspect = try ArcloudProcess.run(["map", "inspect", map.path])
        let localize = try ArcloudProcess.run(["localize", "--map", map.path, Self.walk.path, "--out", root.appendingPathComponent("o").path])
        for r in [inspect, localize] {
            #expect(r.status == 1 && r.stderr.contains(map.path) && r.stderr.contains(named), "\(r.stderr)")
        }
        // simulate reports it as the session's error (the embedded VPS cannot load the map).
        let simulate = try ArcloudProcess.run(["simulate", Self.walk.path, "--map", map.path, "--interval", "10"])
        #expect(simulate.status == 1, "\(simulate.stderr)")
        #expect(simulate.stdout.contains("localizerUnavailable") && simulate.stdout.contains(named), "\(simulate.stdout.prefix(800))")
    }

    // MARK: Scripts

    @Test func aScriptOverTheBoundIsRefusedWithTheBound() throws {
        let (root, dir) = try Self.scratchSession(frames: 2)
        defer { try? FileManager.default.removeItem(at: root) }
        let tap = #"{"time": 0.05, "action": {"tap": {"x": 100, "y": 100}}}"#
        let script = root.appendingPathComponent("taps.json")
        try Data(("[" + Array(repeating: tap, count: 10_001).joined(separator: ",") + "]").utf8).write(to: script)
        let file = try ArcloudProcess.run(["simulate", dir.path, "--map", Self.map, "--script", script.path])
        #expect(file.status == 1, "\(file.stdout.suffix(300))")
        #expect(file.stderr.contains("taps.json: 10001 actions; a script holds at most 10000"), "\(file.stderr)")
        // A file too big to be a script is refused before it is read.
        try Data(count: 5 << 20).write(to: script)
        let big = try ArcloudProcess.run(["simulate", dir.path, "--map", Self.map, "--script", script.path])
        #expect(big.status == 1 && big.stderr.contains("is 5242880 bytes; at most 4194304 are read"), "\(big.stderr)")
        // The same script inside session.json is refused by simulate and dataset validate.
        var session = try RecordedSession.load(from: dir)
        session.script = (0...10_000).map { _ in ScriptAction(time: 0.05, action: .tap(x: 100, y: 100)) }
        try session.write(toDirectory: dir)
        let inside = try ArcloudProcess.run(["simulate", dir.path, "--map", Self.map])
        let validate = try ArcloudProcess.run(["dataset", "validate", dir.path])
        #expect(inside.status == 1 && inside.stderr.contains("session.json: script: 10001 actions; a script holds at most 10000"),
                "\(inside.stderr)")
        #expect(validate.status == 1 && validate.stdout.contains("session.json: script: 10001 actions"), "\(validate.stdout)")
    }

    // MARK: Images

    /// `dataset validate` decodes every frame: a PNG whose checksum is wrong, a cut one and
    /// one that is only a header all fail it, each named, as `localize` would fail on them.
    @Test func validateDecodesEveryFrame() throws {
        let png = try SyntheticImages.encode(try SyntheticImages.texture(width: 640, height: 480), as: .png)
        var badCRC = png
        badCRC[29] ^= 0xFF
        let damaged: [[UInt8]] = [badCRC, Array(png.prefix(png.count * 2 / 3)), Array(png.prefix(33))]
        let (root, dir) = try Self.scratchSession(frames: 3) { s in
            for i in s.frames.indices { s.frames[i].image = "frames/\(i).png" }
        }
        defer { try? FileManager.default.removeItem(at: root) }
        for (i, bytes) in damaged.enumerated() { try Data(bytes).write(to: dir.appendingPathComponent("frames/\(i).png")) }
        let r = try ArcloudProcess.run(["dataset", "validate", dir.path])
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 3, "\(r.stdout)")
        for (i, line) in lines.enumerated() {
            #expect(line.hasPrefix("frames/\(i).png: image of frame '00000\(i)' does not decode: "), "\(line)")
        }
        try Data(png).write(to: dir.appendingPathComponent("frames/0.png"))
        #expect(try ArcloudProcess.run(["dataset", "validate", dir.path]).stdout.split(separator: "\n").count == 2)
    }

    /// A long session shows its progress on stderr (none with --quiet), and its one shared
    /// image is reported for every frame naming it.
    @Test func validateShowsProgressOnALongSession() throws {
        let (root, dir) = try Self.scratchSession(frames: 1) { s in
            s.frames = (0..<1000).map { i in
                var f = s.frames[0]
                f.id = String(format: "%06d", i)
                f.timestamp = Double(i) / 30
                return f
            }
        }
        defer { try? FileManager.default.removeItem(at: root) }
        let r = try ArcloudProcess.run(["dataset", "validate", dir.path])
        #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains("dataset validate gallery-query-walk: 1000/1000 frames"), "\(r.stderr)")
        let quiet = try ArcloudProcess.run(["dataset", "validate", dir.path, "--quiet"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout) \(quiet.stderr)")
        try Data(count: 100).write(to: dir.appendingPathComponent("frames/000000.jpg"))
        let bad = try ArcloudProcess.run(["dataset", "validate", dir.path])
        #expect(bad.status == 1 && bad.stdout.split(separator: "\n").count == 1000, "\(bad.stdout.prefix(300))")
    }

    @Test func importColmapRefusesImagesOfAnotherSizeThanTheirCamera() throws {
        let fm = FileManager.default
        // The walk's images are 640x480; the model says 320x240.
        let (root, model) = try Self.colmapProject(cameras: "1 PINHOLE 320 240 260 260 160 120\n",
                                                   images: "1 1 0 0 0 0 0 0 1 a.jpg\n\n")
        defer { try? fm.removeItem(at: root) }
        try fm.copyItem(at: Self.walk.appendingPathComponent("frames/000000.jpg"), to: root.appendingPathComponent("images/a.jpg"))
        let out = root.appendingPathComponent("imported")
        let r = try ArcloudProcess.run(["dataset", "import-colmap", model.path, out.path])
        #expect(r.status == 1, "\(r.stdout) \(r.stderr)")
        #expect(r.stderr.contains("images.txt:1: image 1 of camera 1: a.jpg is 640x480 but the camera says 320x240"), "\(r.stderr)")
        #expect(!fm.fileExists(atPath: out.appendingPathComponent("session.json").path))
    }

    @Test func validateDoesNotHangOnAFIFOFrame() throws {
        let (root, dir) = try Self.scratchSession(frames: 2)
        defer { try? FileManager.default.removeItem(at: root) }
        let session = try RecordedSession.load(from: dir)
        let frame = dir.appendingPathComponent(session.frames[1].image)
        try FileManager.default.removeItem(at: frame)
        #expect(mkfifo(frame.path, 0o644) == 0)
        let r = try ArcloudProcess.run(["dataset", "validate", dir.path], timeout: 60)
        #expect(r.status == 1, "\(r.stdout) \(r.stderr)")
        #expect((r.stdout + r.stderr).contains("FIFO"), "\(r.stdout) \(r.stderr)")
    }

    // MARK: Outputs and command-line rules

    @Test func anUnwritableOutIsRefusedBeforeTheWork() throws {
        let (root, dir) = try Self.scratchSession(frames: 1)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        for out in [file.path, file.path + "/below"] {
            let r = try ArcloudProcess.run(["localize", "--map", Self.map, dir.path, "--out", out])
            #expect(r.status == 1, "\(out): \(r.stdout)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.contains("--out '\(out)'"), "\(r.stderr)")
            #expect(!r.stderr.contains("NSCocoaErrorDomain"))
            #expect(!r.stdout.contains("success rate"), "the frames were localized first")
        }
        let build = try ArcloudProcess.run(["map", "build", "--session", dir.path, "--out", root.path])
        #expect(build.status == 1)
        #expect(build.stderr.contains("--out '\(root.path)' is a directory"), "\(build.stderr)")
        // A missing folder, or one nothing may be written in (/proc), before the map is read.
        for out in [root.appendingPathComponent("missing/scene.json").path, "/proc/scene.json"] {
            let export = try ArcloudProcess.run(["map", "scene", "export", Self.map, "--out", out])
            #expect(export.status == 1, "\(out)")
            #expect(export.stderr.hasPrefix("arcloud: map scene export: --out '\(out)': ") && export.stderr.split(separator: "\n").count == 1,
                    "\(export.stderr)")
            #expect(!export.stderr.contains("Error Domain") && !export.stderr.contains("NSCocoaErrorDomain"), "\(export.stderr)")
        }
    }

    @Test func countsAreParsedTheSameWayEverywhere() throws {
        let (root, dir) = try Self.scratchSession(frames: 1)
        defer { try? FileManager.default.removeItem(at: root) }
        let build = try ArcloudProcess.run(["map", "build", "--session", dir.path, "--out", root.appendingPathComponent("m.vpsmap").path,
                                            "--threads", "0"])
        let localize = try ArcloudProcess.run(["localize", "--map", Self.map, dir.path, "--workers", "0"])
        #expect(build.status == 2 && localize.status == 2, "\(build.stderr) \(localize.stderr)")
        #expect(build.stderr.contains("'--threads' needs a whole number in 1...256"), "\(build.stderr)")
        #expect(localize.stderr.contains("'--workers' needs a whole number in 1...256"), "\(localize.stderr)")
    }

    @Test func aFlagIsNeverTakenAsAnotherFlagsValue() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-flag-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try ArcloudProcess.run(["localize", "--map", "--out", out.path, Self.walk.path])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("option '--map' needs a value, got the option '--out'"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
