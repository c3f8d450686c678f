// swift-tools-version:6.0
import PackageDescription

// OpenCV and Eigen come from Debian's packages (scripts/setup.sh). Eigen is found through
// pkg-config by the CEigen system-library target. OpenCV is not: its pkg-config file links
// every one of its modules, and through the image codecs and the GUI some 380 shared
// libraries (GDAL, DICOM, Qt, FFmpeg, ...) that cost each process a third of a second of
// dynamic linking and 100 MB. So its headers come through Sources/SystemHeaders/opencv4 (a
// link to Debian's /usr/include/opencv4) and only the modules the code calls are linked
// (`openCVModules`). No unsafe flags anywhere: SwiftPM refuses them in a package fetched by
// URL, and this package is meant to be a dependency.

/// The OpenCV modules VisionCore and BaselineCore call (image decoding and encoding are
/// libjpeg's and libpng's, directly).
let openCVModules: [LinkerSetting] = ["opencv_calib3d", "opencv_features2d", "opencv_imgproc", "opencv_core"]
    .map { .linkedLibrary($0) }
let openCVHeaders = CXXSetting.headerSearchPath("../SystemHeaders/opencv4")

let package = Package(
    name: "arcloud",
    platforms: [.macOS(.v15)],
    products: [
        // The engine and its tools, one module each (see the targets below): the data model,
        // localization, map building, storage, formats, evaluation, scene synthesis, geodesy.
        .library(name: "VPS", targets: ["VPSModel", "MapModel", "Localization", "MapBuilding", "Storage", "Formats",
                                        "Evaluation", "SceneSynthesis", "Geodesy"]),
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
            dependencies: ["CEigen"],
            cxxSettings: [.define("NDEBUG"), .define("EIGEN_NO_DEBUG"), openCVHeaders],
            linkerSettings: openCVModules + [
                // libpng and libjpeg directly: their messages must not print (png_decode.cpp, jpeg_decode.cpp).
                .linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("m"), .linkedLibrary("stdc++"),
                // FFTW (single precision) for the motion-blur stage's transforms (real_fft.hpp).
                .linkedLibrary("fftw3f"),
            ]
        ),
        // What the benchmarks measure arcloud against, in C++ on VisionCore's ABI: OpenCV's
        // own pose and feature pipelines, the OpenCV peer localizers, and synthetic test
        // images. Only the benchmarks and the tests link it.
        .target(name: "BaselineCore", dependencies: ["VisionCore"], cxxSettings: [.define("NDEBUG"), openCVHeaders],
                linkerSettings: openCVModules),
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

        // What every module uses: `Locked<Value>` (the lock for all shared mutable state, on
        // pthread_mutex_t so that ThreadSanitizer sees it), worker threads, `Duration` in
        // seconds, a stopwatch, the core count, percentiles, a seeded random generator.
        .target(name: "Support"),
        // Pure Swift geometry: SE(3) poses, quaternions, camera intrinsics.
        .target(name: "Geometry"),
        // WGS 84 geodesy, pure Swift: geodetic, ECEF and local east-north-up coordinates, a
        // map's georeference (fitted robustly to GPS readings), OGC GeoPose.
        .target(name: "Geodesy", dependencies: ["Geometry", "Support"]),
        // A command-line tool of commands (the arcloud tool's): each command's options declared
        // once, from which its parsing, its check for unknown options and its help's OPTIONS
        // section follow; dispatch by command name, exit statuses, progress on stderr.
        .target(name: "CommandLineOptions", dependencies: ["Support"]),
        // Swift value-type API over VisionCore.
        .target(name: "Vision", dependencies: ["VisionCore", "Geometry", "Support"]),
        // The data model, pure Swift: recorded sessions, scene content and navigation,
        // localization results, the HTTP wire types.
        .target(name: "VPSModel", dependencies: ["Geometry", "Geodesy"]),
        // The map model: a map in memory (`VPSMap`: points, keyframes, vocabulary, metadata).
        .target(name: "MapModel", dependencies: ["VPSModel", "Vision", "Geometry", "Geodesy", "Support"]),
        // The localizer against a map.
        .target(name: "Localization", dependencies: ["MapModel", "VPSModel", "Vision", "Geometry", "Geodesy", "Support"]),
        // Builds a map from posed images.
        .target(name: "MapBuilding", dependencies: ["MapModel", "VPSModel", "Vision", "Geometry", "Geodesy", "Support"]),
        // SQLite: the map file, and the database wrapper the token store uses too.
        .target(name: "Storage", dependencies: ["MapModel", "VPSModel", "Vision", "Geometry", "Geodesy", "Support", "CSQLite"]),
        // Other tools' formats (COLMAP, TUM, nerfstudio) to and from sessions; session checks;
        // the GPS position in a JPEG's EXIF; the choice of a map build's input.
        .target(name: "Formats", dependencies: ["MapModel", "VPSModel", "Vision", "Geometry", "Geodesy", "Support"]),
        // Accuracy against ground truth, run comparison, the HTML report.
        .target(name: "Evaluation", dependencies: ["MapModel", "VPSModel", "Vision", "Geometry", "Geodesy", "Support"]),
        // The synthetic scene and session generator.
        .target(name: "SceneSynthesis", dependencies: ["VPSModel", "Vision", "Geometry", "Geodesy", "Support"]),
        // HTTP client for the VPS service (libcurl).
        .target(name: "VPSClient", dependencies: ["VPSModel", "Support", "CCurl"]),
        // HTTP service (libmicrohttpd), tokens, routes, metrics.
        .target(name: "VPSServer", dependencies: ["Storage", "Localization", "VPSModel", "Vision", "Support", "Geodesy",
                                                  "CMicroHTTPD", "CLibPQ", "CCrypto", "MapModel", "Geometry"]),
        // The GraffityARCloud SDK port.
        .target(name: "GraffityARCloud", dependencies: ["Localization", "Storage", "VPSModel", "VPSClient", "Vision", "Geodesy",
                                                        "Geometry", "Support", "MapModel"]),
        // `arcloud localize --server`: frames localized through the HTTP service, retried
        // under the SDK's policy.
        .target(name: "RemoteLocalization", dependencies: ["VPSClient", "GraffityARCloud", "Localization", "VPSModel",
                                                           "Geometry", "Geodesy", "Support"]),
        // `arcloud simulate`: a recorded session replayed through the SDK, its states and
        // events as JSON lines.
        .target(name: "Simulation", dependencies: ["GraffityARCloud", "VPSModel", "Geometry", "Support"]),
        // Swift over BaselineCore: the OpenCV peers and baselines, synthetic test images.
        .target(name: "Baselines", dependencies: ["BaselineCore", "VisionCore", "Vision", "Geometry", "Support"]),
        // `arcloud bench`: the real-photo benchmark, the HTTP load generator, the serve and
        // scale measurements. Only the `arcloud` executable and the tests link it.
        .target(name: "Benchmarks", dependencies: ["Baselines", "Evaluation", "Formats", "Geodesy", "MapBuilding", "Storage",
                                                   "Localization", "VPSModel", "VPSServer", "VPSClient", "Vision",
                                                   "Geometry", "Support", "MapModel", "SceneSynthesis"]),
        .executableTarget(
            name: "arcloud",
            dependencies: ["Benchmarks", "SceneSynthesis", "Evaluation", "Formats", "MapBuilding",
                           "Storage", "MapModel", "Localization", "VPSModel", "VPSServer", "VPSClient", "GraffityARCloud",
                           "Simulation", "RemoteLocalization", "Vision", "Geodesy", "Support",
                           "CommandLineOptions"]
        ),

        // Helpers several test targets share (fixtures, scratch folders, synthetic maps).
        .target(name: "TestSupport", dependencies: ["Baselines", "MapBuilding", "Storage", "VPSModel", "Vision",
                                                    "Geometry", "Support", "MapModel"],
                path: "Tests/TestSupport"),
        // A real server on loopback with a stand-in engine, for the HTTP and SDK-lifecycle tests
        // (the other test targets do not link the server).
        .target(name: "ServerTestSupport", dependencies: ["VPSServer", "VPSClient", "Localization", "VPSModel", "Geometry",
                                                          "Support"],
                path: "Tests/ServerTestSupport"),
        .testTarget(name: "SupportTests", dependencies: ["Support"]),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
        .testTarget(name: "GeodesyTests", dependencies: ["Geodesy", "Geometry", "Support"]),
        .testTarget(name: "CommandLineOptionsTests", dependencies: ["CommandLineOptions"]),
        .testTarget(name: "VisionTests", dependencies: ["Vision", "Baselines", "TestSupport", "Support", "Geometry"]),
        .testTarget(name: "BaselinesTests", dependencies: ["Baselines", "Vision", "TestSupport", "Geometry"]),
        .testTarget(name: "VPSModelTests", dependencies: ["VPSModel", "Formats", "Vision", "Baselines", "TestSupport",
                                                          "Support", "Geometry"]),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization", "MapBuilding", "Geodesy", "Storage", "Evaluation", "VPSModel",
                                                              "Vision", "TestSupport", "Support", "Geometry",
                                                              "MapModel"]),
        .testTarget(name: "MapBuildingTests", dependencies: ["MapBuilding", "Formats", "Storage", "VPSModel",
                                                             "Vision", "TestSupport", "Geometry", "Geodesy", "MapModel"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "Geodesy", "VPSModel", "TestSupport", "Geometry",
                                                         "MapModel"]),
        .testTarget(name: "FormatsTests", dependencies: ["Formats", "MapBuilding", "VPSModel", "Vision", "Baselines",
                                                         "TestSupport", "Geometry", "Geodesy", "Support", "MapModel"]),
        .testTarget(name: "EvaluationTests", dependencies: ["Evaluation", "Localization", "VPSModel", "TestSupport", "Support",
                                                            "Geometry", "Geodesy", "Vision"]),
        .testTarget(name: "SceneSynthesisTests", dependencies: ["SceneSynthesis", "Formats", "VPSModel", "Vision", "TestSupport",
                                                                "Geometry"]),
        .testTarget(name: "BenchmarksTests", dependencies: ["Benchmarks", "Evaluation", "Geodesy", "Localization", "MapBuilding", "Storage", "VPSModel",
                                                            "VPSServer", "VPSClient", "TestSupport", "Support",
                                                            "Geometry", "Vision", "MapModel", "ServerTestSupport",
                                                            "SceneSynthesis"]),
        .testTarget(name: "RemoteLocalizationTests", dependencies: ["RemoteLocalization", "VPSClient", "Geometry",
                                                                    "ServerTestSupport"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "GraffityARCloud"]),
        .testTarget(name: "VPSServerTests", dependencies: ["Geodesy", "VPSServer", "VPSClient", "Storage", "Localization",
                                                           "VPSModel", "MapBuilding", "TestSupport", "Support",
                                                           "Geometry", "MapModel", "ServerTestSupport"]),
        .testTarget(name: "GraffityARCloudTests",
                    dependencies: ["GraffityARCloud", "Localization", "VPSServer", "Storage", "VPSModel", "Baselines", "Support",
                                   "Geometry", "Vision", "TestSupport", "MapModel", "ServerTestSupport", "Geodesy"]),
        // The SDK port as an app sees it: only `import GraffityARCloud`, no @testable.
        .testTarget(name: "GraffityARCloudAPITests", dependencies: ["GraffityARCloud"]),
        // Runs the built `arcloud` executable as a user would.
        .testTarget(name: "EndToEndTests", dependencies: ["Evaluation", "Storage", "VPSModel", "Baselines",
                                                          "TestSupport", "Geometry", "Geodesy", "Vision", "MapModel"]),
    ],
    cxxLanguageStandard: .cxx17
)
