import Foundation
import MapModel
import Storage

/// The package's root folder (where `Package.swift`, `Maps/` and `Datasets/` are), found
/// from this file's place in the tree, so tests read the shipped data wherever the
/// package is checked out.
package enum PackageDirectory {
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()   // Tests/VPSTests
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The built `arcloud` executable beside the test bundle (`swift build` puts both in one
    /// folder; the bundle, `<build>/arcloudPackageTests.xctest`, is a folder on some layouts),
    /// else `.build/debug/arcloud` in the package.
    package static var arcloudExecutable: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while dir.pathComponents.count > 1 {
            dir.deleteLastPathComponent()
            let candidate = dir.appendingPathComponent("arcloud")
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDir), !isDir.boolValue {
                return candidate
            }
        }
        return root.appendingPathComponent(".build/debug/arcloud")
    }
}

extension PackageDirectory {
    /// The shipped map, `Maps/gallery.vpsmap`, loaded once; nil when it does not load.
    package static let galleryMap: VPSMap? = try? VPSMap.load(from: root.appendingPathComponent("Maps/gallery.vpsmap").path)
}
