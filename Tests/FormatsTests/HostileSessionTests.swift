import Foundation
import Geometry
import Testing
import Formats
import TestSupport
import VPSModel

/// Paths and values in session, script and import files are untrusted input: reading
/// never leaves the named folder, never blocks on a FIFO, and never traps on a time.
@Suite struct HostileSessionTests {
    /// `scratch/session/` holding the fixture session, beside `scratch/other/secret.jpg`.
    private func layout(_ edit: (inout RecordedSession) -> Void = { _ in }) throws -> (ScratchDirectory, URL) {
        let scratch = try ScratchDirectory("hostile")
        let dir = scratch.url.appendingPathComponent("session")
        var session = DatasetFixtures.session()
        try DatasetFixtures.write(session, to: dir)
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("other"), withIntermediateDirectories: true)
        try DatasetFixtures.jpegHeader(width: 64, height: 48).write(to: scratch.url.appendingPathComponent("other/secret.jpg"))
        edit(&session)
        try session.write(toDirectory: dir)
        return (scratch, dir)
    }

    /// Removes a frame's image file, for a test to put something else in its place.
    private func removeFrameImage(_ name: String, in dir: URL) throws -> URL {
        let frame = dir.appendingPathComponent("frames/" + name)
        try FileManager.default.removeItem(at: frame)
        return frame
    }

    /// The validator must name frame 1's image as a path out of the session.
    private func expectFrame1ImageOutsideTheSession(_ dir: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        let p = SessionValidator.validate(directory: dir)
        #expect(p.contains { $0.kind == .imagePathOutsideSession && $0.location == "session.json: frames[1].image" }, "\(p)",
                sourceLocation: sourceLocation)
    }

    // MARK: Paths

    @Test func frameImagesOutsideTheSessionAreRefusedEverywhere() throws {
        let (scratch, dir) = try layout { $0.frames[1].image = "../other/secret.jpg" }
        defer { withExtendedLifetime(scratch) {} }
        let session = try RecordedSession.load(from: dir)
        // The one resolver every reader uses (localize, simulate, map build, validate).
        #expect(throws: ContainedPathError.self) { try RecordedSession.imageURL(of: session.frames[1], in: dir) }
        #expect(throws: ContainedPathError.self) { try MapBuildFrame.frames(of: session, in: dir) }
        expectFrame1ImageOutsideTheSession(dir)
    }

    @Test func aSymlinkOutOfTheSessionIsRefused() throws {
        let (scratch, dir) = try layout()
        defer { withExtendedLifetime(scratch) {} }
        let frame = try removeFrameImage("000001.jpg", in: dir)
        try FileManager.default.createSymbolicLink(at: frame, withDestinationURL: scratch.url.appendingPathComponent("other/secret.jpg"))
        expectFrame1ImageOutsideTheSession(dir)
    }

    @Test func aFIFOFrameIsAProblemNotAHang() throws {
        let (scratch, dir) = try layout()
        defer { withExtendedLifetime(scratch) {} }
        let frame = try removeFrameImage("000002.jpg", in: dir)
        #expect(mkfifo(frame.path, 0o644) == 0)
        // Used to block forever opening the FIFO to read its header.
        let p = SessionValidator.validate(directory: dir)
        #expect(p.map(\.kind) == [.unreadableFrameImage], "\(p)")
        #expect(p.first?.message.contains("FIFO") == true)
    }

    @Test func aFIFOSessionFileIsAProblemNotAHang() throws {
        let scratch = try ScratchDirectory("fifo-session")
        defer { withExtendedLifetime(scratch) {} }
        #expect(mkfifo(scratch.url.appendingPathComponent("session.json").path, 0o644) == 0)
        let p = SessionValidator.validate(directory: scratch.url)
        #expect(p.map(\.kind) == [.unreadableFile], "\(p)")
    }

    @Test func tumListCannotReachOutsideTheSequence() throws {
        let seq = try ScratchDirectory("tum-escape"), out = try ScratchDirectory("tum-escape-out")
        try Data("1.0 ../../../../../etc/passwd\n".utf8).write(to: seq.url.appendingPathComponent("rgb.txt"))
        let importer = TUMImporter(camera: CameraIntrinsics(width: 40, height: 30, fx: 35, fy: 35, cx: 20, cy: 15))
        let e = #expect(throws: DatasetImportError.self) { try importer.importSequence(from: seq.url, to: out.url, name: "x") }
        #expect(e?.file == "rgb.txt" && e?.line == 1 && e?.message.contains("leaves the folder") == true, "\(String(describing: e))")
        let copied = (try? FileManager.default.contentsOfDirectory(atPath: out.url.appendingPathComponent("frames").path)) ?? []
        #expect(copied.isEmpty)
    }

    @Test func colmapImageNamesCannotReachOutsideTheImages() throws {
        let model = try ScratchDirectory("colmap-escape"), out = try ScratchDirectory("colmap-escape-out")
        try Data("1 PINHOLE 40 30 30 30 20 15\n".utf8).write(to: model.url.appendingPathComponent("cameras.txt"))
        try Data("1 1 0 0 0 0 0 0 1 ../../../../../../etc/passwd\n\n".utf8)
            .write(to: model.url.appendingPathComponent("images.txt"))
        let images = model.url.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        #expect(throws: DatasetImportError.self) {
            try COLMAPImporter().importModel(from: model.url, images: images, to: out.url, name: "x")
        }
        // Nothing was copied into the new session.
        let copied = (try? FileManager.default.contentsOfDirectory(atPath: out.url.appendingPathComponent("frames").path)) ?? []
        #expect(copied.isEmpty)
    }

    @Test func listAndSceneFilesThatAreFIFOsAreErrorsNotHangs() throws {
        let seq = try ScratchDirectory("tum-fifo"), out = try ScratchDirectory("tum-fifo-out")
        #expect(mkfifo(seq.url.appendingPathComponent("rgb.txt").path, 0o644) == 0)
        let importer = TUMImporter(camera: CameraIntrinsics(width: 40, height: 30, fx: 35, fy: 35, cx: 20, cy: 15))
        let e = #expect(throws: DatasetImportError.self) { try importer.importSequence(from: seq.url, to: out.url, name: "x") }
        #expect(e?.message.contains("FIFO") == true, "\(String(describing: e))")
        let scene = seq.url.appendingPathComponent("scene.json")
        #expect(mkfifo(scene.path, 0o644) == 0)
        let r = #expect(throws: RegularFileError.self) { try RegularFile.read(scene) }
        #expect(r?.description == "\(scene.path) is a FIFO, not a regular file")
    }

    // MARK: Times

    @Test func timesTheReplayClockCannotHoldAreReported() throws {
        let (scratch, dir) = try layout {
            $0.frames[2].timestamp = 1e308
            $0.script?[1].time = -1e300
        }
        defer { withExtendedLifetime(scratch) {} }
        let p = SessionValidator.validate(directory: dir)
        #expect(p.contains { $0.kind == .invalidTime && $0.location == "session.json: frames[2].timestamp" }, "\(p)")
        #expect(p.contains { $0.kind == .invalidTime && $0.location == "session.json: script[1].time" }, "\(p)")
        #expect(SessionTime.microseconds(1e308) == nil)
        #expect(SessionTime.microseconds(9.3e12) == nil)
        #expect(SessionTime.microseconds(.infinity) == nil)
        #expect(SessionTime.microseconds(12.5) == 12_500_000)
    }

    // MARK: Scripts

    @Test func scriptErrorsNameAndQuoteTheBadEntry() throws {
        let json = #"[{"time": 1, "action": {"reset": {}}}, {"time": 2, "action": {"tap": {"x": "left", "y": 3}}}]"#
        do {
            _ = try ScriptFile.decode(Data(json.utf8), fileName: "script.json")
            Issue.record("a bad script decoded")
        } catch let p as DatasetProblem {
            #expect(p.location.hasPrefix("script.json: [1].action"), "\(p)")
            #expect(p.message.contains(#""x":"left""#), "\(p)")
        }
        let late = #"{"script": [{"time": 1e308, "action": {"reset": {}}}]}"#
        do {
            _ = try ScriptFile.decode(Data(late.utf8), fileName: "session.json")
            Issue.record("a script at 1e308 s decoded")
        } catch let p as DatasetProblem {
            #expect(p.kind == .invalidTime && p.location == "session.json: script[0].time", "\(p)")
        }
        let good = #"[{"time": 0.5, "action": {"startNavigation": {"node": "a"}}}, {"time": 1, "action": {"shutdown": {}}}]"#
        #expect(try ScriptFile.decode(Data(good.utf8), fileName: "s.json").count == 2)
    }

    /// A script is bounded by its action count (checked before any entry is decoded) and, as
    /// a file, by its size (checked before it is read): a million taps once took more than
    /// 7 GB and ended in SIGABRT.
    @Test func scriptsAreBoundedBeforeTheyAreDecoded() throws {
        let tap = #"{"time": 1, "action": {"tap": {"x": 1, "y": 2}}}"#
        let over = "[" + Array(repeating: tap, count: ScriptLimits.maxActions + 1).joined(separator: ",") + "]"
        do {
            _ = try ScriptFile.decode(Data(over.utf8), fileName: "taps.json")
            Issue.record("a script over the bound decoded")
        } catch let p as DatasetProblem {
            #expect(p.kind == .scriptTooLong && p.location == "taps.json", "\(p)")
            #expect(p.message == "10001 actions; a script holds at most 10000", "\(p)")
        }
        let inside = "{\"script\": [" + Array(repeating: tap, count: ScriptLimits.maxActions + 1).joined(separator: ",") + "]}"
        #expect(throws: DatasetProblem.self) { try ScriptFile.decode(Data(inside.utf8), fileName: "session.json") }

        let scratch = try ScratchDirectory("big-script")
        let file = scratch.url.appendingPathComponent("taps.json")
        try Data(count: ScriptLimits.maxFileBytes + 1).write(to: file)
        let e = #expect(throws: DatasetProblem.self) { try ScriptFile.load(from: file) }
        #expect(e?.message.contains("is \(ScriptLimits.maxFileBytes + 1) bytes; at most \(ScriptLimits.maxFileBytes) are read") == true,
                "\(String(describing: e))")
    }
}
