// swift-tools-version:6.0
import PackageDescription

// OpenCV and Eigen come from Debian's packages (scripts/setup.sh). We name only the
// OpenCV libraries we use instead of pkg-config's ~60: fewer shared objects at start.
let openCVLibraries = ["opencv_core", "opencv_imgproc", "opencv_imgcodecs",
                       "opencv_features2d", "opencv_calib3d"]

let package = Package(
    name: "arcloud",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "VPS", targets: ["VPS"]),
        .library(name: "VPSServer", targets: ["VPSServer"]),
        .library(name: "VPSClient", targets: ["VPSClient"]),
        .library(name: "GraffityARCloud", targets: ["GraffityARCloud"]),
        .executable(name: "arcloud", targets: ["arcloud"]),
    ],
    targets: [
        // C++17 vision core (OpenCV + Eigen) behind a flat C ABI in include/.
        .target(
            name: "VisionCore",
            cxxSettings: [
                // Optimise even in debug builds: Eigen at -O0 is ~50x slower and the
                // test suite localizes real images.
                .unsafeFlags(["-I/usr/include/opencv4", "-I/usr/include/eigen3",
                              "-O2", "-mpopcnt", "-msse4.2", "-DNDEBUG",
                              "-fno-math-errno"]),
            ],
            linkerSettings: openCVLibraries.map { .linkedLibrary($0) } + [
                // libpng directly for PNGs: its errors must not print (png_decode.cpp).
                .linkedLibrary("png16"), .linkedLibrary("m"), .linkedLibrary("stdc++"),
            ]
        ),
        // System library shims: variadic C functions and macros wrapped inline.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD"),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl"),

        // Pure Swift geometry: SE(3) poses, quaternions, camera intrinsics.
        .target(name: "Geometry"),
        // Swift value-type API over VisionCore.
        .target(name: "Vision", dependencies: ["VisionCore", "Geometry"]),
        // Datasets, maps (SQLite), map builder, localizer, evaluation, reports.
        .target(name: "VPS", dependencies: ["Vision", "Geometry", "CSQLite"]),
        // HTTP client for the VPS service (libcurl).
        .target(name: "VPSClient", dependencies: ["VPS", "CCurl"]),
        // HTTP service (libmicrohttpd), tokens, routes, metrics.
        .target(name: "VPSServer", dependencies: ["VPS", "CMicroHTTPD", "CSQLite"]),
        // The GraffityARCloud SDK port.
        .target(name: "GraffityARCloud", dependencies: ["VPS", "VPSClient", "Geometry"]),
        .executableTarget(
            name: "arcloud",
            dependencies: ["VPS", "VPSServer", "VPSClient", "GraffityARCloud", "Vision"]
        ),

        .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
        .testTarget(name: "VisionTests", dependencies: ["Vision"]),
        .testTarget(name: "VPSTests", dependencies: ["VPS"]),
        .testTarget(name: "VPSServerTests", dependencies: ["VPSServer", "VPSClient"]),
        .testTarget(name: "GraffityARCloudTests",
                    dependencies: ["GraffityARCloud", "VPSServer", "VPSClient"]),
        // Runs the built `arcloud` executable as a user would.
        .testTarget(name: "EndToEndTests", dependencies: ["VPS"]),
    ],
    cxxLanguageStandard: .cxx17
)
