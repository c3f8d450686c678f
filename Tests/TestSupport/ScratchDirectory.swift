import Foundation

/// A fresh, empty scratch directory under the system temporary directory.
package func makeScratchDirectory(_ label: String = #function) throws -> String {
    let safe = label.filter { $0.isLetter || $0.isNumber }
    let dir = NSTemporaryDirectory() + "arcloud-\(safe)-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}
