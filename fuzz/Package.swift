// swift-tools-version:6.0
// libFuzzer targets for arcloud's input readers. A package of its own so that the main
// package's `swift build` never sees them: they only link with `-sanitize=fuzzer`.
// Build and run them with `scripts/fuzz.sh` (see docs/hardening.md).
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, which is whatever the clone is called.
let arcloud = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "arcloud-fuzz",
    dependencies: [.package(path: "..")],
    targets: [
        // Declares libFuzzer's `LLVMFuzzerRunDriver`, which our own `main` calls.
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "arcloud-fuzz",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "VPS", package: arcloud),
                .product(name: "VPSServer", package: arcloud),
                .product(name: "GraffityARCloud", package: arcloud),
            ]
        ),
    ]
)
