import Foundation
import Formats
import Localization
import Storage
import VPSModel

extension FuzzTarget {
    /// The COLMAP text model readers: the input is `cameras.txt`, a NUL byte, then
    /// `images.txt`. Both are written to a scratch folder (with one image, `a.jpg`) and
    /// read by the one COLMAP reader (`COLMAPModel`) and by `dataset import-colmap`.
    static let colmap = FuzzTarget(name: "colmap", summary: "cameras.txt NUL images.txt, read and imported") { bytes in
        let (cameras, images) = splitAtFirstNUL(bytes)
        withScratchFolder { folder in
            let imagesFolder = folder.appendingPathComponent("images")
            do {
                try Data(cameras).write(to: folder.appendingPathComponent("cameras.txt"))
                try Data(images).write(to: folder.appendingPathComponent("images.txt"))
                try FileManager.default.createDirectory(at: imagesFolder, withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Datasets/gallery-query-walk/frames/000000.jpg"),
                                                 to: imagesFolder.appendingPathComponent("a.jpg"))
            } catch {
                fatalError("arcloud-fuzz cannot write its scratch folder: \(error)")
            }
            _ = try? COLMAPModel.load(from: folder)
            _ = try? COLMAPImporter().importModel(from: folder, images: imagesFolder,
                                                  to: folder.appendingPathComponent("session"), name: "fuzz")
        }
    }
}
