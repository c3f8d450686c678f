import Foundation
import Support
import Vision
import VPSModel

/// What checking a session's frame images found, each file checked once on all cores.
///
/// A long recording may name one file from many frames, and two paths may resolve to the
/// same file: each distinct path is resolved once and each distinct file read and decoded
/// once, so the work follows the files, not the frames. A worker keeps only what it found
/// (the decoded size, or why the file fails) and drops the bytes and pixels before it
/// takes the next file, so memory follows the workers, not the frames.
struct FrameImageFiles {
    /// What was found for one image path, whatever frame names it.
    enum Finding: Sendable, Hashable {
        /// The file decodes in full to this size.
        case decoded(width: Int, height: Int)
        /// The path is empty or leads out of the session folder.
        case outsideFolder
        case missing
        /// Something other than a regular file (`kind` says what).
        case notRegularFile(kind: String)
        /// The file reads but does not decode (the decoder's message).
        case undecodable(String)
        /// The file cannot be read.
        case unreadable(String)
    }

    /// The finding of each distinct image path, and which path each frame names (4 bytes a
    /// frame: a long session's frames are read as a stream, their paths once each).
    private let findings: [Finding]
    private let pathOfFrame: [Int32]

    /// The finding for frame `i` of the session checked.
    subscript(frame i: Int) -> Finding { findings[Int(pathOfFrame[i])] }

    /// Whether every frame's image decodes to `width` × `height`: then no frame has an
    /// image problem, and nobody need read the frames again to name them.
    func allDecode(width: Int, height: Int) -> Bool {
        findings.allSatisfy { $0 == .decoded(width: width, height: height) }
    }

    /// The image paths of a session's frames, gathered a frame at a time: each distinct
    /// path once, and which one each frame names.
    struct Paths {
        fileprivate var index: [String: Int32] = [:]
        fileprivate var paths: [String] = []
        fileprivate var pathOfFrame: [Int32] = []

        mutating func add(_ image: String) {
            if let p = index[image] { return pathOfFrame.append(p) }
            let p = Int32(paths.count)
            index[image] = p
            paths.append(image)
            pathOfFrame.append(p)
        }
    }

    /// Checks the images `frames` name in the session folder `directory` on `workers`
    /// threads (every core when 0), each distinct file once with `check`. `progress` is
    /// called with the number of frames whose image has been checked, one call at a time
    /// and in increasing order.
    init(_ frames: [RecordedSession.Frame], in directory: URL, workers: Int,
         progress: (@Sendable (Int) -> Void)?, check: @Sendable (URL) -> Finding) {
        var paths = Paths()
        for frame in frames { paths.add(frame.image) }
        self.init(paths, in: directory, workers: workers, progress: progress, check: check)
    }

    /// Checks the images of `gathered` as `init(_:in:workers:progress:check:)` does.
    init(_ gathered: Paths, in directory: URL, workers: Int,
         progress: (@Sendable (Int) -> Void)?, check: @Sendable (URL) -> Finding) {
        let paths = gathered.paths
        pathOfFrame = gathered.pathOfFrame
        var framesOfPath = [Int](repeating: 0, count: paths.count)
        for p in pathOfFrame { framesOfPath[Int(p)] += 1 }

        // Each path to its real file; paths that resolve to the same file share it.
        let resolved = Self.parallel(paths.count, workers: workers) { [paths] p in Self.resolve(paths[p], in: directory) }
        var fileIndex: [String: Int] = [:]
        var files: [URL] = []
        var framesOfFile: [Int] = []
        var unchecked = 0
        let fileOfPath = resolved.indices.map { p -> Int? in
            guard case .success(let url) = resolved[p] else { unchecked += framesOfPath[p]; return nil }
            if let f = fileIndex[url.path] { framesOfFile[f] += framesOfPath[p]; return f }
            fileIndex[url.path] = files.count
            files.append(url)
            framesOfFile.append(framesOfPath[p])
            return files.count - 1
        }

        let done = Locked(0)
        @Sendable func report(_ frames: Int) {
            guard let progress, frames > 0 else { return }
            done.withLock { $0 += frames; progress($0) }
        }
        report(unchecked)
        let checked = Self.parallel(files.count, workers: workers) { [files, framesOfFile] f in
            let finding = check(files[f])
            report(framesOfFile[f])
            return finding
        }
        findings = resolved.indices.map { p in
            switch resolved[p] {
            case .success: checked[fileOfPath[p]!]
            case .failure(let refused): refused.finding
            }
        }
    }

    /// Reads and decodes the file at `url` in full, as `localize` will: a header alone says
    /// nothing of a bad checksum, a cut file or missing image data. The size is the
    /// decoded one. Bytes and pixels are gone when it returns.
    static func check(_ url: URL) -> Finding {
        do {
            let image = try GrayImage(decoding: [UInt8](RegularFile.read(url)))
            return .decoded(width: image.width, height: image.height)
        } catch let e as VisionError {
            return .undecodable(e.message)
        } catch {
            return .unreadable("\(error)")
        }
    }

    /// A path the session names that is not a regular file inside its folder.
    private struct Refused: Error { var finding: Finding }

    /// The real file `path` names inside `directory`, or why there is none.
    private static func resolve(_ path: String, in directory: URL) -> Result<URL, Refused> {
        do {
            return .success(try ContainedPath.regularFile(path, in: directory, source: RecordedSession.fileName))
        } catch let e as ContainedPathError {
            switch e.reason {
            case .empty, .outsideFolder: return .failure(Refused(finding: .outsideFolder))
            case .missing, .folderUnreadable: return .failure(Refused(finding: .missing))
            case .notRegularFile(let kind): return .failure(Refused(finding: .notRegularFile(kind: kind)))
            }
        } catch {
            return .failure(Refused(finding: .unreadable("\(error)")))
        }
    }

    /// `body(i)` for every `i` in `0..<count` on `workers` threads, results in index order.
    private static func parallel<T: Sendable>(_ count: Int, workers: Int, _ body: @Sendable (Int) -> T) -> [T] {
        // `body` cannot throw, so neither can `map`.
        try! WorkerThreads.map(count: count, threads: workers, makeState: { () }) { _, i in body(i) }
    }
}
