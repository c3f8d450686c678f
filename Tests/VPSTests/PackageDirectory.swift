import Foundation

/// The package's root folder (where `Package.swift`, `Maps/` and `Datasets/` are), found
/// from this file's place in the tree, so tests read the shipped data wherever the
/// package is checked out.
enum PackageDirectory {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()   // Tests/VPSTests
        .deletingLastPathComponent().deletingLastPathComponent()
}
