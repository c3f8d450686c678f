import Foundation
import MapModel
import Storage

/// A fresh, empty scratch directory under the system temporary directory.
package func makeScratchDirectory(_ label: String = #function) throws -> String {
    let safe = label.filter { $0.isLetter || $0.isNumber }
    let dir = NSTemporaryDirectory() + "arcloud-\(safe)-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

/// `map` written as `name` in a fresh scratch directory: the directory (remove it when
/// done) and the file's path.
package func writeToScratchDirectory(_ map: VPSMap, named name: String = "m.vpsmap",
                                     _ label: String = #function) throws -> (dir: String, path: String) {
    let dir = try makeScratchDirectory(label)
    let path = dir + "/" + name
    try map.write(to: path)
    return (dir, path)
}
