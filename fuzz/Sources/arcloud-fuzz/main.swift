import CFuzzerDriver
import Foundation

// arcloud-fuzz <target> [libFuzzer flags and corpus folders or input files]
//
// libFuzzer runs on a secondary thread with a large stack (ASan frames are big) while the
// main thread serves the main actor, which the SDK targets need.

let arguments = CommandLine.arguments
guard arguments.count >= 2, let target = FuzzTarget.all.first(where: { $0.name == arguments[1] }) else {
    var usage = "usage: arcloud-fuzz <target> [libFuzzer options] [corpus folders | inputs]\ntargets:\n"
    for t in FuzzTarget.all { usage += "  \(t.name.padding(toLength: 18, withPad: " ", startingAt: 0))\(t.summary)\n" }
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
selectedTarget = target

let fuzzer = Thread {
    var libFuzzerArguments = [arguments[0]] + arguments.dropFirst(2)
    var argc = Int32(libFuzzerArguments.count)
    var cStrings: [UnsafeMutablePointer<CChar>?] = libFuzzerArguments.map { strdup($0) } + [nil]
    let status = cStrings.withUnsafeMutableBufferPointer { buffer -> Int32 in
        var argv = buffer.baseAddress
        return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) }
    }
    libFuzzerArguments.removeAll()
    exit(status)
}
fuzzer.stackSize = 64 << 20
fuzzer.start()
dispatchMain()
