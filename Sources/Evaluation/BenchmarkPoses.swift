import Geometry
import VPSModel

/// `poses.txt` in the format of the visual-localization benchmark (what hloc writes):
/// one line per localized image, `name qw qx qy qz tx ty tz`, the world-to-camera pose in
/// COLMAP's convention (the inverse of arcloud's `T_map_camera`).
public enum BenchmarkPoses {
    /// The file's text: localized frames only, in run order.
    public static func text<Outcomes: Sequence<FrameOutcome>>(_ outcomes: Outcomes) -> String {
        outcomes.compactMap { o in
            o.result.pose.map { line(name: imageName(of: o), worldToCamera: $0.inverse) }
        }.map { $0 + "\n" }.joined()
    }

    /// The name a benchmark knows the image by: the session's image path without the
    /// `frames/` folder every session keeps images in (so a COLMAP import gives back
    /// COLMAP's image name); the frame id for runs that did not record the image.
    public static func imageName(of outcome: FrameOutcome) -> String {
        guard let image = outcome.image else { return outcome.frameId }
        return image.hasPrefix("frames/") ? String(image.dropFirst("frames/".count)) : image
    }

    /// One line; numbers in their shortest exact form, as Python's `str` writes them.
    public static func line(name: String, worldToCamera p: Pose) -> String {
        let q = p.rotation, t = p.translation
        return ([name] + [q.w, q.x, q.y, q.z, t.x, t.y, t.z].map { "\($0)" }).joined(separator: " ")
    }
}
