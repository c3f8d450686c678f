import Foundation
import Testing

/// Where the real-photo data (`shared/real`, laid out as its README says) is found:
/// `ARCLOUD_REAL_PHOTOS` when set, else `../shared/real` beside the package, as CI's
/// clone has it. A clone elsewhere points the variable at the folder instead of moving.
///
/// The photos are not part of the repository, so a test that reads them carries
/// `.needsRealPhotos(scene)`: on a clone without them it is skipped with a one-line notice
/// (scripts/test.sh counts those), unless `ARCLOUD_REQUIRE_REAL_PHOTOS=1` (set by CI,
/// which has them) turns their absence into a failure.
package enum RealPhotoData {
    package static let root: URL = {
        if let dir = ProcessInfo.processInfo.environment["ARCLOUD_REAL_PHOTOS"], !dir.isEmpty {
            return URL(fileURLWithPath: dir, isDirectory: true).standardized
        }
        return PackageDirectory.root.appendingPathComponent("../shared/real", isDirectory: true).standardized
    }()

    /// iPhone photos of a tree sculpture with COLMAP models in arbitrary units.
    package static var monstree: URL { root.appendingPathComponent("monstree", isDirectory: true) }

    /// The text every skipped test prints; scripts/test.sh counts the lines that carry it.
    package static let skipNotice = "needs the real photos"

    /// True when `scene` is there; false when it is not and absence is allowed.
    /// - Throws: `Missing` when it is not there and `ARCLOUD_REQUIRE_REAL_PHOTOS=1`.
    package static func isAvailable(_ scene: String) throws -> Bool {
        var isDirectory: ObjCBool = false
        let dir = root.appendingPathComponent(scene, isDirectory: true)
        if FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDirectory), isDirectory.boolValue { return true }
        if ProcessInfo.processInfo.environment["ARCLOUD_REQUIRE_REAL_PHOTOS"] == "1" { throw Missing(folder: dir.path) }
        return false
    }

    /// The real photos are required (`ARCLOUD_REQUIRE_REAL_PHOTOS=1`) and absent.
    package struct Missing: Error, CustomStringConvertible {
        package var folder: String
        package var description: String {
            "ARCLOUD_REQUIRE_REAL_PHOTOS=1 but there are no real photos at \(folder) (set ARCLOUD_REAL_PHOTOS=/path/to/shared/real)"
        }
    }
}

package extension Trait where Self == ConditionTrait {
    /// Runs the test only when the real-photo scene `scene` (a folder of `RealPhotoData.root`)
    /// is there; see `RealPhotoData`.
    static func needsRealPhotos(_ scene: String) -> Self {
        .enabled("\(RealPhotoData.skipNotice) in \(RealPhotoData.root.appendingPathComponent(scene).path) (absent; ARCLOUD_REAL_PHOTOS=/path points elsewhere)") {
            try RealPhotoData.isAvailable(scene)
        }
    }
}
