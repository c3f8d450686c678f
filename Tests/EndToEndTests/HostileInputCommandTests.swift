import Foundation
import Testing
import VPS

/// The commands on hostile input (issue 17): paths that leave their folder, sessions that
/// cannot localize, outputs that cannot be written, flags that swallow flags.
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

    @Test func importColmapDoesNotCopyFilesFromOutside() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("hostile-colmap-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: root) }
        let model = root.appendingPathComponent("sparse")
        try fm.createDirectory(at: model, withIntermediateDirectories: true)
        try fm.createDirectory(at: root.appendingPathComponent("images"), withIntermediateDirectories: true)
        try Data("1 PINHOLE 640 480 500 500 320 240\n".utf8).write(to: model.appendingPathComponent("cameras.txt"))
        try Data("1 1 0 0 0 0 0 0 1 ../../../../../../../../etc/passwd\n\n".utf8).write(to: model.appendingPathComponent("images.txt"))
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
        #expect(r.stderr.contains("frames[1].timestamp"), "\(r.stderr)")
        let v = try ArcloudProcess.run(["dataset", "validate", dir.path])
        #expect(v.status != 0)
        #expect(v.stdout.contains("frames[1].timestamp") || v.stderr.contains("frames[1].timestamp"), "\(v.stdout) \(v.stderr)")
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
