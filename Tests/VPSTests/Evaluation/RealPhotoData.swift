import Foundation

/// Where the real-photo data (`shared/real`, laid out as its README says) is found:
/// `ARCLOUD_REAL_PHOTOS` when set, else `../shared/real` beside the package, as CI's
/// clone has it. A clone elsewhere points the variable at the folder instead of moving.
enum RealPhotoData {
    static let root: URL = {
        if let dir = ProcessInfo.processInfo.environment["ARCLOUD_REAL_PHOTOS"], !dir.isEmpty {
            return URL(fileURLWithPath: dir, isDirectory: true).standardized
        }
        return PackageDirectory.root.appendingPathComponent("../shared/real", isDirectory: true).standardized
    }()

    /// iPhone photos of a tree sculpture with COLMAP models in arbitrary units.
    static var monstree: URL { root.appendingPathComponent("monstree", isDirectory: true) }
}
