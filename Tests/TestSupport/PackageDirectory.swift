import Foundation
import Localization
import Storage

/// The package's root folder (where `Package.swift`, `Maps/` and `Datasets/` are), found
/// from this file's place in the tree, so tests read the shipped data wherever the
/// package is checked out.
package enum PackageDirectory {
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()   // Tests/VPSTests
        .deletingLastPathComponent().deletingLastPathComponent()
}

extension PackageDirectory {
    /// The shipped map, `Maps/gallery.vpsmap`, loaded once; nil when it does not load.
    package static let galleryMap: VPSMap? = try? VPSMap.load(from: root.appendingPathComponent("Maps/gallery.vpsmap").path)
}
