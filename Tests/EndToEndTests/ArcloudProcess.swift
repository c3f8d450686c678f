import Foundation
import TestSupport

/// Runs the built `arcloud` executable as a user would and captures what it prints.
struct ArcloudProcess {
    struct Output: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The executable beside the test bundle (`swift build` puts both in the same folder).
    static var executable: URL { PackageDirectory.arcloudExecutable }

    /// The package root (for the shipped Maps/ and Datasets/).
    static var packageRoot: URL { PackageDirectory.root }

    /// `run` on a thread of its own: a test that waits for a long run this way does not
    /// hold a thread of the Swift concurrency pool (2 on a 2-core machine) meanwhile.
    static func runOffThread(_ arguments: [String], timeout: TimeInterval = defaultTimeout) async throws -> Output {
        try await withCheckedThrowingContinuation { done in
            Thread { done.resume(with: Result { try run(arguments, timeout: timeout) }) }.start()
        }
    }

    /// How long `run` lets a child run before terminating it: a guard against hangs, not a
    /// speed check. Under a sanitizer (this binary and the `arcloud` it runs are built with
    /// it, about four times slower) four times as long: a 60-keyframe map build took over
    /// 300 s under ASan on a loaded 2-core machine.
    static let defaultTimeout: TimeInterval = dlsym(nil, "__sanitizer_get_current_allocated_bytes") == nil ? 300 : 1200

    /// Runs `arcloud` (or, with `program`, another command) from the package root.
    @discardableResult
    static func run(_ arguments: [String], program: URL = executable, timeout: TimeInterval = defaultTimeout) throws -> Output {
        let p = Process()
        p.executableURL = program
        p.arguments = arguments
        p.currentDirectoryURL = packageRoot
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        // Drain both pipes concurrently so a chatty child never blocks on a full pipe.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if group.wait(timeout: .now() + timeout) == .timedOut {
            p.terminate()
            group.wait()
        }
        p.waitUntilExit()
        return Output(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
