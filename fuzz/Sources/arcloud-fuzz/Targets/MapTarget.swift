import Foundation
import Formats
import Localization
import MapModel
import Storage
import VPSModel

extension FuzzTarget {
    /// The map loader: the input is the bytes of a `.vpsmap` (SQLite) file, written to a
    /// scratch folder and opened as `localize` and the server open it (the whole map, then
    /// a localizer over it), and as the SDK reads a scene.
    static let map = FuzzTarget(name: "map", summary: "a .vpsmap file's bytes, loaded and indexed") { bytes in
        withScratchFolder { folder in
            let path = folder.appendingPathComponent("fuzz.vpsmap").path
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                fatalError("arcloud-fuzz cannot write \(path)")
            }
            _ = try? VPSMap.loadScene(from: path)
            guard let map = try? VPSMap.load(from: path) else { return }
            _ = try? Localizer(map: map)
        }
    }
}
