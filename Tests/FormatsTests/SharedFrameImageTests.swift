import Foundation
import Testing
@testable import Formats
import Support
import TestSupport
import VPSModel

/// Long sessions name few files from many frames: each file is read and decoded once, its
/// problems reach every frame that names it, and problems come in frame order whatever
/// the workers.
@Suite struct SharedFrameImageTests {
    /// The fixture session with `count` frames at 30 Hz, frame `i` naming `images[i % images.count]`.
    private func session(frames count: Int, naming images: [String]) -> RecordedSession {
        var session = DatasetFixtures.session()
        let model = session.frames[0]
        session.script = nil
        session.frames = (0..<count).map { i in
            var f = model
            f.id = String(format: "%07d", i)
            f.timestamp = Double(i) / 30
            f.image = images[i % images.count]
            return f
        }
        return session
    }

    /// Writes the fixture's JPEG (the camera's size) at each of `names` under `dir`.
    private func writeImages(_ names: [String], in dir: URL, width: Int = DatasetFixtures.camera.width) throws {
        let jpeg = try DatasetFixtures.jpeg(width: width, height: DatasetFixtures.camera.height)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("frames"), withIntermediateDirectories: true)
        for name in names { try jpeg.write(to: dir.appendingPathComponent(name)) }
    }

    /// Validates with `workers` threads, counting how often each file (by name) is checked.
    private func validate(_ session: RecordedSession, in dir: URL, workers: Int,
                          progress: (@Sendable (Int) -> Void)? = nil,
                          delay: @escaping @Sendable (URL) -> UInt32 = { _ in 0 })
        -> (problems: [DatasetProblem], checks: [String: Int]) {
        let checks = Locked<[String: Int]>([:])
        let problems = SessionValidator.validate(session, directory: dir, workers: workers, progress: progress) { url in
            checks.withLock { $0[url.lastPathComponent, default: 0] += 1 }
            usleep(delay(url))
            return FrameImageFiles.check(url)
        }
        return (problems, checks.withLock { $0 })
    }

    @Test func aFileNamedByManyFramesIsDecodedOnce() throws {
        let dir = try ScratchDirectory()
        try writeImages(["frames/a.jpg", "frames/b.jpg"], in: dir.url)
        // `./frames/a.jpg` is another path to the same file.
        let s = session(frames: 3000, naming: ["frames/a.jpg", "frames/b.jpg", "./frames/a.jpg"])
        let reported = Locked<[Int]>([])
        let (problems, checks) = validate(s, in: dir.url, workers: 4) { done in reported.withLock { $0.append(done) } }
        #expect(problems.isEmpty, "\(problems.prefix(3))")
        #expect(checks == ["a.jpg": 1, "b.jpg": 1])
        let counts = reported.withLock { $0 }
        #expect(counts.last == 3000 && counts == counts.sorted(), "\(counts)")
    }

    @Test func problemsOfASharedFileReachEveryFrameNamingIt() throws {
        let dir = try ScratchDirectory()
        try writeImages(["frames/good.jpg"], in: dir.url)
        try writeImages(["frames/small.jpg"], in: dir.url, width: 40)
        try Data("garbage".utf8).write(to: dir.url.appendingPathComponent("frames/bad.jpg"))
        let names = ["frames/good.jpg", "frames/bad.jpg", "frames/small.jpg", "frames/none.jpg"]
        let s = session(frames: 400, naming: names)
        let (problems, checks) = validate(s, in: dir.url, workers: 3)
        #expect(checks == ["good.jpg": 1, "bad.jpg": 1, "small.jpg": 1])
        let failing = s.frames.filter { $0.image != "frames/good.jpg" }
        #expect(problems.count == failing.count)
        for (p, frame) in zip(problems, failing) {
            #expect(p.location == frame.image)
            switch frame.image {
            case "frames/bad.jpg":
                #expect(p.kind == .unreadableFrameImage && p.message.hasPrefix("image of frame '\(frame.id)' does not decode: "), "\(p)")
            case "frames/small.jpg":
                #expect(p.kind == .imageSizeMismatch && p.message == "image is 40x48 but the camera says 64x48", "\(p)")
            default:
                #expect(p.kind == .missingFrameImage && p.message == "image of frame '\(frame.id)' does not exist", "\(p)")
            }
        }
    }

    /// Files finish in the reverse of their order (earlier ones take longer), yet the
    /// problems are the same, in frame order, for one worker or many.
    @Test func problemsComeInFrameOrderWhateverTheWorkers() throws {
        let dir = try ScratchDirectory()
        let names = (0..<24).map { String(format: "frames/%02d.jpg", $0) }
        for (i, name) in names.enumerated() {
            switch i % 4 {
            case 0: try writeImages([name], in: dir.url)
            case 1: try Data("garbage".utf8).write(to: dir.url.appendingPathComponent(name))
            case 2: try writeImages([name], in: dir.url, width: 40)
            default: break   // missing
            }
        }
        var s = session(frames: 96, naming: names)
        s.frames[50].id = s.frames[10].id
        s.frames[70].timestamp = s.frames[69].timestamp
        let slowFirst: @Sendable (URL) -> UInt32 = { url in
            UInt32(24 - (Int(url.deletingPathExtension().lastPathComponent) ?? 0)) * 300
        }
        let one = validate(s, in: dir.url, workers: 1).problems
        let many = validate(s, in: dir.url, workers: 6, delay: slowFirst).problems
        #expect(many == one)
        // Frame by frame: its id, its timestamp, then its image (frame i names a file of kind i % 4).
        var expected: [(location: String, frameId: String?)] = []
        for (i, f) in s.frames.enumerated() {
            if i == 50 { expected.append(("session.json: frames[50].id", nil)) }
            if i == 70 { expected.append(("session.json: frames[70].timestamp", nil)) }
            if i % 4 == 1 || i % 4 == 3 { expected.append((f.image, f.id)) }
            if i % 4 == 2 { expected.append((f.image, nil)) }
        }
        #expect(one.map(\.location) == expected.map(\.location))
        for (p, e) in zip(one, expected) {
            if let id = e.frameId { #expect(p.message.contains("frame '\(id)'"), "\(p)") }
        }
    }

    /// A long session naming one image validates (the public entry point, `session.json`
    /// read from disk). No time is asserted: the command's figures are measured elsewhere.
    @Test func aLongSessionNamingOneImageValidates() throws {
        let dir = try ScratchDirectory()
        try writeImages(["frames/one.jpg"], in: dir.url)
        try session(frames: 20_000, naming: ["frames/one.jpg"]).write(toDirectory: dir.url)
        let last = Locked(0)
        let problems = SessionValidator.validate(directory: dir.url) { done in last.withLock { $0 = done } }
        #expect(problems.isEmpty, "\(problems.prefix(3))")
        #expect(last.withLock { $0 } == 20_000)
    }
}
