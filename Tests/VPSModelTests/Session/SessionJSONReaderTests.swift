import Foundation
import Testing
import TestSupport
import VPSModel

/// `session.json` read a frame at a time gives what decoding the whole file gave: the same
/// sessions, and the same errors at the same places.
@Suite struct SessionJSONReaderTests {
    /// The whole-file decode the reader replaces: `JSONDecoder` on all of the bytes.
    private func wholeFile(_ data: Data) -> Result<RecordedSession, DatasetProblem> {
        do {
            return .success(try DatasetJSON.decode(RecordedSession.self, from: data, fileName: RecordedSession.fileName,
                                                   supportedVersion: RecordedSession.currentVersion))
        } catch let p as DatasetProblem { return .failure(p) } catch { fatalError("\(error)") }
    }

    private func streamed(_ data: Data, chunkSize: Int = 1 << 16) -> Result<RecordedSession, DatasetProblem> {
        do {
            return .success(try SessionJSONReader.decode(data, fileName: RecordedSession.fileName, chunkSize: chunkSize))
        } catch let p as DatasetProblem { return .failure(p) } catch { fatalError("\(error)") }
    }

    /// The session read as a stream (`StreamedSession`), its frames read back into it.
    private func opened(_ data: Data, chunkSize: Int = 1 << 16) -> Result<RecordedSession, DatasetProblem> {
        do {
            let stream = try SessionJSONReader.stream(data, fileName: RecordedSession.fileName, chunkSize: chunkSize)
            var session = stream.header
            #expect(session.frames.isEmpty)
            try stream.forEach { _, frame in session.frames.append(frame) }
            #expect(session.frames.count == stream.count)
            return .success(session)
        } catch let p as DatasetProblem { return .failure(p) } catch { fatalError("\(error)") }
    }

    private func fixtureJSON() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: DatasetFixtures.session().encoded()) as? [String: Any])
    }

    private func json(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    }

    @Test func shippedSessionsReadAsTheWholeFileDecodes() throws {
        let datasets = PackageDirectory.root.appendingPathComponent("Datasets")
        let names = try FileManager.default.contentsOfDirectory(atPath: datasets.path).filter {
            FileManager.default.fileExists(atPath: datasets.appendingPathComponent("\($0)/session.json").path)
        }
        #expect(names.count >= 6, "\(names)")
        for name in names {
            let file = datasets.appendingPathComponent("\(name)/session.json")
            let data = try Data(contentsOf: file)
            let expected = try wholeFile(data).get()
            #expect(try RecordedSession.load(from: file.deletingLastPathComponent()) == expected, "\(name)")
            #expect(try streamed(data, chunkSize: 7).get() == expected, "\(name)")
            #expect(try opened(data, chunkSize: 7).get() == expected, "\(name)")
        }
    }

    @Test func everyChunkSizeReadsTheSameSession() throws {
        let data = try DatasetFixtures.session().encoded()
        let expected = try wholeFile(data).get()
        for size in 1...9 { #expect(try streamed(data, chunkSize: size).get() == expected, "chunk size \(size)") }
    }

    /// Documents that are JSON but not sessions: each error is the whole-file decoder's,
    /// in kind, place and words (and so comes first where it came first).
    @Test func errorsAreTheWholeFileDecodersErrors() throws {
        var cases: [(String, Data)] = []
        func add(_ label: String, _ edit: (inout [String: Any]) throws -> Void) throws {
            var root = try fixtureJSON()
            try edit(&root)
            cases.append((label, try json(root)))
        }
        func editFrame(_ i: Int, _ root: inout [String: Any], _ edit: (inout [String: Any]) -> Void) throws {
            var frames = try #require(root["frames"] as? [[String: Any]])
            edit(&frames[i])
            root["frames"] = frames
        }
        try add("timestamp a string") { try editFrame(1, &$0) { $0["timestamp"] = "soon" } }
        try add("no id") { try editFrame(2, &$0) { $0["id"] = nil } }
        try add("id null") { try editFrame(0, &$0) { $0["id"] = NSNull() } }
        try add("non-unit odometry") { try editFrame(2, &$0) { $0["odometry"] = ["q": [0, 0, 0, 2], "t": [0, 0, 0]] } }
        try add("short t") { try editFrame(1, &$0) { $0["pose"] = ["q": [0, 0, 0, 1], "t": [0, 0]] } }
        try add("bad gps") { try editFrame(1, &$0) { $0["gps"] = ["latitude": 91, "longitude": 0, "accuracy": 5] } }
        try add("pose null, unknown member") { try editFrame(1, &$0) { $0["pose"] = NSNull(); $0["extra"] = [1, 2] } }
        try add("huge timestamp") { try editFrame(0, &$0) { $0["timestamp"] = 1e300 } }
        try add("frame a number") { var f = try #require($0["frames"] as? [Any]); f[1] = 7; $0["frames"] = f }
        try add("frames an object") { $0["frames"] = ["a": 1] }
        try add("frames null") { $0["frames"] = NSNull() }
        try add("no frames") { $0["frames"] = nil }
        try add("no frames, bad camera") { $0["frames"] = nil; $0["camera"] = 3 }
        try add("bad camera, bad frame") { $0["camera"] = ["fx": 1]; try editFrame(0, &$0) { $0["id"] = 1 } }
        try add("bad frame, bad script") { $0["script"] = 1; try editFrame(0, &$0) { $0["id"] = 1 } }
        try add("no frames, version 7") { $0["frames"] = nil; $0["version"] = 7 }
        try add("version a string") { $0["version"] = "1" }
        try add("version 7, bad frame") { $0["version"] = 7; try editFrame(0, &$0) { $0["id"] = 1 } }
        try add("name a number") { $0["name"] = 1 }
        try add("georeference a string") { $0["georeference"] = "here" }
        try add("unknown members") { $0["notes"] = ["x": [1, 2, 3]]; $0["z"] = NSNull() }
        try add("empty frames") { $0["frames"] = [Any]() }
        try add("script too long") {
            $0["script"] = Array(repeating: ["time": 1, "action": ["reset": [String: Any]()]] as [String: Any], count: ScriptLimits.maxActions + 1)
        }
        cases += [("an array", Data("[1, 2]".utf8)), ("a number", Data("3".utf8)), ("a string", Data(#""s""#.utf8)),
                  ("null", Data("null".utf8)), ("an empty object", Data("{}".utf8))]
        for (label, data) in cases {
            let expected = wholeFile(data)
            #expect(streamed(data) == expected, "\(label)")
            #expect(streamed(data, chunkSize: 3) == expected, "\(label)")
            #expect(opened(data) == expected, "\(label)")
            #expect(opened(data, chunkSize: 3) == expected, "\(label)")
        }
    }

    @Test func aBadFrameIsNamedByItsIndexAndField() throws {
        var session = DatasetFixtures.session()
        session.frames = (0..<1000).map { i in
            var f = session.frames[i % 3]
            f.id = String(i)
            f.timestamp = Double(i)
            return f
        }
        var text = String(decoding: try session.encoded(), as: UTF8.self)
        #expect(try streamed(Data(text.utf8)).get() == wholeFile(Data(text.utf8)).get())
        text = text.replacingOccurrences(of: #""id" : "737""#, with: #""id" : 737"#)
        let p = try #require(streamed(Data(text.utf8)).failure)
        #expect(opened(Data(text.utf8)).failure == p)
        #expect(p.kind == .malformedJSON && p.location == "session.json: frames[737].id", "\(p)")
        #expect(p.message.hasPrefix("expected a string"), "\(p)")
    }

    /// A stream's readers start at any frame (past several checkpoints, in chunks of any
    /// size) and give the frames the whole file holds from there.
    @Test func aStreamReadsFromAnyFrame() throws {
        var session = DatasetFixtures.session()
        session.frames = (0..<2600).map { i in
            var f = session.frames[i % 3]
            f.id = String(i)
            f.timestamp = Double(i)
            return f
        }
        let data = try session.encoded()
        session = try RecordedSession.decode(data)  // quaternions as read: normalized
        for chunkSize in [5, 1 << 16] {
            let stream = try SessionJSONReader.stream(data, fileName: RecordedSession.fileName, chunkSize: chunkSize)
            #expect(stream.count == 2600 && stream.header.name == session.name && stream.header.camera == session.camera)
            for start in [0, 1, 1023, 1024, 1025, 2047, 2048, 2599, 2600, 3000] {
                let next = try stream.reader(from: start)
                var read: [RecordedSession.Frame] = []
                while let f = try next() { read.append(f) }
                #expect(read == Array(session.frames.dropFirst(start)), "from \(start), chunks of \(chunkSize): \(read.count) frames")
            }
        }
        // The array form reads alike.
        let next = session.frames.reader(from: 2598)
        #expect(try next()?.id == "2598" && next()?.id == "2599" && next() == nil)
    }

    /// Frames are counted before they are decoded; a count of empty objects reserves no
    /// more room than their bytes could hold as frames, and the first is refused.
    @Test func manyEmptyFramesAreRefusedAtTheFirst() throws {
        var root = try fixtureJSON()
        root["frames"] = Array(repeating: [String: Any](), count: 200_000)
        let data = try json(root)
        let p = try #require(streamed(data).failure)
        #expect(p.location == "session.json: frames[0].id" && p == wholeFile(data).failure, "\(p)")
    }

    @Test func syntaxErrorsNameTheLineAndColumn() throws {
        for (text, line, column) in [("{\"version\": 1, \"name\": ", 1, 24), ("{\n  \"frames\": [\n    {},\n  ],\n}", 4, 3),
                                     ("{\"frames\": [{\"id\": \"é\u{01}\"}]}", 1, 22)] as [(String, Int, Int)] {
            let p = try #require(streamed(Data(text.utf8)).failure, "\(text) was read")
            #expect(p.kind == .malformedJSON && p.location == "session.json", "\(p)")
            #expect(p.message.hasPrefix("The given data was not valid JSON: ")
                    && p.message.hasSuffix("at line \(line), column \(column)."), "\(p)")
            #expect(wholeFile(Data(text.utf8)).failure?.kind == .malformedJSON, "\(text)")
        }
    }

    @Test func aMemberReadTwiceIsRefused() throws {
        let text = #"{"version": 1, "name": "a", "fr\u0061mes": [], "frames": []}"#
        let p = try #require(streamed(Data(text.utf8)).failure)
        #expect(p == DatasetProblem(.malformedJSON, at: "session.json: frames", "the member appears more than once"))
        // Unknown members may repeat: no reader looks at them.
        var root = try fixtureJSON()
        root["notes"] = 1
        let once = String(decoding: try json(root), as: UTF8.self)
        let twice = once.replacingOccurrences(of: #""notes":1"#, with: #""notes":1,"notes":2"#)
        #expect(try streamed(Data(twice.utf8)).get() == wholeFile(Data(once.utf8)).get())
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let data = try DatasetFixtures.session().encoded()
        #expect(try streamed(Data([0xEF, 0xBB, 0xBF]) + data).get() == wholeFile(data).get())
    }

    @Test func aFileThatIsNotThereOrNotAFileIsUnreadable() throws {
        let scratch = try ScratchDirectory("session-reader")
        let missing = #expect(throws: DatasetProblem.self) { try RecordedSession.load(from: scratch.url) }
        #expect(missing?.kind == .unreadableFile && missing?.location == "session.json", "\(String(describing: missing))")
        #expect(missing?.message.hasSuffix("session.json does not exist") == true, "\(String(describing: missing))")
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("session.json"),
                                                withIntermediateDirectories: true)
        let folder = #expect(throws: DatasetProblem.self) { try RecordedSession.load(from: scratch.url) }
        #expect(folder?.message.hasSuffix("is a directory, not a regular file") == true, "\(String(describing: folder))")
    }
}

private extension Result {
    var failure: Failure? {
        if case let .failure(f) = self { return f }
        return nil
    }
}
