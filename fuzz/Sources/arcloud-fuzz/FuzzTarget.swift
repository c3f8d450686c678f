import Foundation

/// One fuzz target: the reader it exercises and what it does with each input.
///
/// `run` must never trap on any input: a bad input is an error the reader reports. Where
/// a reader accepts an input, `run` also checks what must then hold (sizes agree, parts
/// lie inside the body…) with `precondition`, so a wrong answer is a crash libFuzzer keeps.
struct FuzzTarget: Sendable {
    /// Also the name of the seed corpus folder, `fuzz/corpus/<name>/`.
    let name: String
    let summary: String
    let run: @Sendable ([UInt8]) -> Void
}

extension FuzzTarget {
    static let all: [FuzzTarget] = [
        .image, .multipart, .localizeRequest, .session, .colmap, .script, .map, .exif,
    ]
}

/// The target chosen on the command line; set once before libFuzzer starts.
nonisolated(unsafe) var selectedTarget: FuzzTarget?

/// Runs the selected target on one input (libFuzzer's callback).
///
/// Also exported as `LLVMFuzzerTestOneInput`: libFuzzer's archive references that name
/// from its own `main` (which SwiftPM's `main` replaces), so the link needs it.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let target = selectedTarget else { fatalError("arcloud-fuzz: no target selected") }
    target.run(size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// The package root (the folder holding `Maps/` and `Datasets/`), from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// A fresh private folder for one input's files, removed after `body`.
func withScratchFolder<R>(_ body: (URL) throws -> R) rethrows -> R {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("arcloud-fuzz-\(getpid())-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}

/// The input cut at its first NUL byte: for targets that read two files from one input.
func splitAtFirstNUL(_ bytes: [UInt8]) -> ([UInt8], [UInt8]) {
    guard let cut = bytes.firstIndex(of: 0) else { return (bytes, []) }
    return (Array(bytes[..<cut]), Array(bytes[(cut + 1)...]))
}

/// Runs `body` on the main actor and waits for it. libFuzzer runs on a secondary thread
/// (see main.swift) so that the main actor stays free for the SDK's session host.
func blockingOnMainActor(_ body: @escaping @MainActor @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task { @MainActor in
        await body()
        done.signal()
    }
    done.wait()
}
