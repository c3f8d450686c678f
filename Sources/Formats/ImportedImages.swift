import Foundation
import Geometry
import VPSModel

/// How the importers name frames and copy images: images keep their names, so results
/// trace back to the user's files.
enum ImportedImages {
    /// An image name relative to its folder, with `.`, empty and `..` components folded
    /// (`./a//b.jpg` → `a/b.jpg`). `ContainedPath` has already refused names that leave it.
    static func normalized(_ name: String) -> String {
        var parts: [Substring] = []
        for p in name.split(separator: "/") where p != "." {
            if p == "..", !parts.isEmpty { parts.removeLast() } else if p != ".." { parts.append(p) }
        }
        return parts.joined(separator: "/")
    }

    /// Frame ids for normalized image names: the file stems (`images/IMG_0042.jpg` →
    /// `IMG_0042`); when two images share a stem (same name in two subfolders), the names
    /// without extension instead, so ids stay unique.
    static func frameIds(_ names: [String]) -> [String] {
        func dropExtension(_ s: String) -> String {
            let ext = (s as NSString).pathExtension
            return ext.isEmpty ? s : String(s.dropLast(ext.count + 1))
        }
        let stems = names.map { dropExtension(($0 as NSString).lastPathComponent) }
        return Set(stems).count == stems.count ? stems : names.map(dropExtension)
    }

    /// Why `image` cannot be a frame of a session with this camera, or nil when it can: it
    /// must be a JPEG or PNG stored at the camera's size, since intrinsics describe the
    /// image as stored and a session has one camera. Read from the header: the importers
    /// copy images, `dataset validate` decodes them.
    static func sizeProblem(of image: URL, camera: CameraIntrinsics) -> String? {
        guard let header = ImageHeader.read(image) else {
            return "\(image.lastPathComponent) is not a JPEG or PNG with a readable size"
        }
        guard header.width == camera.width, header.height == camera.height else {
            return "\(image.lastPathComponent) is \(header.width)x\(header.height) but the camera says \(camera.width)x\(camera.height)"
        }
        return nil
    }

    /// Copies `source` to `<output>/frames/<name>` (replacing a file left by an earlier
    /// import) and returns the session's image path, `frames/<name>`.
    static func copy(_ source: URL, as name: String, into output: URL) throws -> String {
        let image = "frames/\(name)"
        let target = output.appendingPathComponent(image)
        let fm = FileManager.default
        try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        if fm.fileExists(atPath: target.path) { try fm.removeItem(at: target) }
        try fm.copyItem(at: source, to: target)
        return image
    }
}
