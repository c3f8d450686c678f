// swift-tools-version:6.0
import PackageDescription

// OpenCV and Eigen come from Debian's packages (scripts/setup.sh), found through pkg-config
// by the COpenCV and CEigen system-library targets. No unsafe flags anywhere: SwiftPM refuses
// them in a package fetched by URL, and this package is meant to be a dependency.
let package = Package(
    name: "arcloud",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "VPS", targets: ["VPS"]),
        .library(name: "VPSServer", targets: ["VPSServer"]),
        .library(name: "VPSClient", targets: ["VPSClient"]),
        .library(name: "GraffityARCloud", targets: ["GraffityARCloud"]),
        .library(name: "Geometry", targets: ["Geometry"]),
        .executable(name: "arcloud", targets: ["arcloud"]),
    ],
    targets: [
        // C++17 vision core (OpenCV + Eigen) behind a flat C ABI in include/.
        // Debug builds compile it at -O0 unless told otherwise: scripts/test.sh passes
        // `-Xcxx -O2` (Eigen at -O0 is ~50x slower and the tests localize real images).
        // Hardware popcount and SSE4.1 are enabled per hot file with a target attribute.
        .target(
            name: "VisionCore",
            dependencies: ["COpenCV", "CEigen"],
            cxxSettings: [.define("NDEBUG"), .define("EIGEN_NO_DEBUG")],
            linkerSettings: [
                // libpng and libjpeg directly: their messages must not print (png_decode.cpp, jpeg_decode.cpp).
                .linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("m"), .linkedLibrary("stdc++"),
            ]
        ),
        .systemLibrary(name: "COpenCV", path: "Sources/COpenCV", pkgConfig: "opencv4",
                       providers: [.apt(["libopencv-dev"])]),
        .systemLibrary(name: "CEigen", path: "Sources/CEigen", pkgConfig: "eigen3",
                       providers: [.apt(["libeigen3-dev"])]),
        // System library shims: variadic C functions and macros wrapped inline.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD"),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl"),
        // PostgreSQL's client library (token store shared by replicas) and OpenSSL's
        // libcrypto (SHA-256 of tokens and map files); include paths from pkg-config.
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),

        // Pure Swift geometry: SE(3) poses, quaternions, camera intrinsics.
        .target(name: "Geometry"),
        // `Locked<Value>`: the lock for all shared mutable state, on pthread_mutex_t so that
        // ThreadSanitizer sees it (it cannot see Synchronization.Mutex).
        .target(name: "Locking"),
        // Command-line options declared once per command, from which its parsing, its check
        // for unknown options and its help's OPTIONS section follow (the arcloud tool's).
        .target(name: "CommandLineOptions"),
        // Swift value-type API over VisionCore.
        .target(name: "Vision", dependencies: ["VisionCore", "Geometry", "Locking"]),
        // Datasets, maps (SQLite), map builder, localizer, evaluation, reports.
        .target(name: "VPS", dependencies: ["Vision", "Geometry", "Locking", "CSQLite"]),
        // HTTP client for the VPS service (libcurl).
        .target(name: "VPSClient", dependencies: ["VPS", "Locking", "CCurl"]),
        // HTTP service (libmicrohttpd), tokens, routes, metrics.
        .target(name: "VPSServer", dependencies: ["VPS", "Vision", "Locking", "CMicroHTTPD", "CSQLite", "CLibPQ", "CCrypto"]),
        // The GraffityARCloud SDK port.
        .target(name: "GraffityARCloud", dependencies: ["VPS", "VPSClient", "Geometry", "Locking"]),
        .executableTarget(
            name: "arcloud",
            dependencies: ["VPS", "VPSServer", "VPSClient", "GraffityARCloud", "Vision", "Locking", "CommandLineOptions"]
        ),

        .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
        .testTarget(name: "LockingTests", dependencies: ["Locking"]),
        .testTarget(name: "CommandLineOptionsTests", dependencies: ["CommandLineOptions"]),
        .testTarget(name: "VisionTests", dependencies: ["Vision", "Locking"]),
        .testTarget(name: "VPSTests", dependencies: ["VPS", "Locking"]),
        .testTarget(name: "VPSServerTests", dependencies: ["VPSServer", "VPSClient", "Locking"]),
        .testTarget(name: "GraffityARCloudTests",
                    dependencies: ["GraffityARCloud", "VPSServer", "VPSClient", "Locking"]),
        // The SDK port as an app sees it: only `import GraffityARCloud`, no @testable.
        .testTarget(name: "GraffityARCloudAPITests", dependencies: ["GraffityARCloud"]),
        // Runs the built `arcloud` executable as a user would.
        .testTarget(name: "EndToEndTests", dependencies: ["VPS"]),
    ],
    cxxLanguageStandard: .cxx17
)
