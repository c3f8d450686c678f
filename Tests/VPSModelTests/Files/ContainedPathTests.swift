import Foundation
import Testing
import TestSupport
import VPSModel

/// Paths read from input files resolve only to regular files inside the named folder.
@Suite struct ContainedPathTests {
    /// `root/inside/` (the folder, with `a.jpg` and `sub/b.jpg`) beside `root/outside/secret.jpg`.
    private struct Layout {
        let scratch: ScratchDirectory
        var folder: URL { scratch.url.appendingPathComponent("inside") }
        var outside: URL { scratch.url.appendingPathComponent("outside") }

        init() throws {
            scratch = try ScratchDirectory("contained")
            let fm = FileManager.default
            try fm.createDirectory(at: scratch.url.appendingPathComponent("inside/sub"), withIntermediateDirectories: true)
            try fm.createDirectory(at: scratch.url.appendingPathComponent("outside"), withIntermediateDirectories: true)
            try Data("a".utf8).write(to: scratch.url.appendingPathComponent("inside/a.jpg"))
            try Data("b".utf8).write(to: scratch.url.appendingPathComponent("inside/sub/b.jpg"))
            try Data("secret".utf8).write(to: scratch.url.appendingPathComponent("outside/secret.jpg"))
        }
    }

    private func reason(_ path: String, in layout: Layout) -> ContainedPathError.Reason? {
        do {
            _ = try ContainedPath.regularFile(path, in: layout.folder, source: "session.json")
            return nil
        } catch let e as ContainedPathError {
            #expect(e.description.hasPrefix("session.json: "))
            return e.reason
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func filesInsideResolve() throws {
        let l = try Layout()
        let url = try ContainedPath.regularFile("sub/b.jpg", in: l.folder, source: "session.json")
        #expect(try Data(contentsOf: url) == Data("b".utf8))
        // `..` that stays inside is fine, and so is an absolute path inside the folder.
        _ = try ContainedPath.regularFile("sub/../a.jpg", in: l.folder, source: "session.json")
        _ = try ContainedPath.regularFile(l.folder.path + "/a.jpg", in: l.folder, source: "session.json")
    }

    @Test func dotDotThatLeavesIsRefused() throws {
        let l = try Layout()
        #expect(reason("../outside/secret.jpg", in: l) == .outsideFolder)
        #expect(reason("sub/../../outside/secret.jpg", in: l) == .outsideFolder)
        // Leaving the folder is reported as such even when nothing is there.
        #expect(reason("../../../../etc/nothing-here", in: l) == .outsideFolder)
        #expect(reason("..", in: l) == .outsideFolder)
    }

    @Test func absolutePathOutsideIsRefused() throws {
        let l = try Layout()
        #expect(reason(l.outside.path + "/secret.jpg", in: l) == .outsideFolder)
        #expect(reason("/etc/passwd", in: l) == .outsideFolder)
    }

    @Test func symlinkEscapeIsRefused() throws {
        let l = try Layout()
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: l.folder.path + "/link.jpg", withDestinationPath: l.outside.path + "/secret.jpg")
        try fm.createSymbolicLink(atPath: l.folder.path + "/dir", withDestinationPath: l.outside.path)
        #expect(reason("link.jpg", in: l) == .outsideFolder)
        #expect(reason("dir/secret.jpg", in: l) == .outsideFolder)
        // A symlink that stays inside is followed.
        try fm.createSymbolicLink(atPath: l.folder.path + "/alias.jpg", withDestinationPath: "sub/b.jpg")
        #expect(reason("alias.jpg", in: l) == nil)
    }

    @Test func folderReachedThroughASymlinkStillContainsItsFiles() throws {
        let l = try Layout()
        let linkToFolder = l.scratch.url.appendingPathComponent("folder-link")
        try FileManager.default.createSymbolicLink(at: linkToFolder, withDestinationURL: l.folder)
        _ = try ContainedPath.regularFile("a.jpg", in: linkToFolder, source: "session.json")
        #expect(throws: ContainedPathError.self) {
            try ContainedPath.regularFile("../outside/secret.jpg", in: linkToFolder, source: "session.json")
        }
    }

    @Test func nonRegularFilesAreRefusedWithoutOpeningThem() throws {
        let l = try Layout()
        let fifo = l.folder.path + "/pipe.jpg"
        #expect(mkfifo(fifo, 0o644) == 0)
        // Opening the FIFO would block forever; the check must not.
        #expect(reason("pipe.jpg", in: l) == .notRegularFile(kind: "a FIFO"))
        #expect(reason("sub", in: l) == .notRegularFile(kind: "a directory"))
        #expect(reason("missing.jpg", in: l) == .missing)
        #expect(reason("", in: l) == .empty)
    }

    @Test func errorNamesSourceAndPath() throws {
        let l = try Layout()
        do {
            _ = try ContainedPath.regularFile("../outside/secret.jpg", in: l.folder, source: "images.txt")
            Issue.record("escaped")
        } catch let e as ContainedPathError {
            #expect(e.description.contains("images.txt"))
            #expect(e.description.contains("'../outside/secret.jpg'"))
        }
    }
}
