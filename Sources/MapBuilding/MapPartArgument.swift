import Foundation
import Geometry
import MapModel

extension MapMerger {
    /// A part as `arcloud map merge` names it: `path` or `path@x,y,z[,yaw]` (a translation in
    /// the venue's units, then a turn of yaw degrees about the map's up, counter-clockwise
    /// seen from above). A path may itself hold '@' before the last one.
    public struct PartArgument: Sendable, Hashable {
        public var path: String
        /// The placement's text after '@', nil when none was given.
        public var placement: String?

        public init(_ text: String) {
            if let at = text.lastIndex(of: "@"), !text[text.index(after: at)...].contains("/") {
                path = String(text[..<at]); placement = String(text[text.index(after: at)...])
            } else {
                path = text; placement = nil
            }
        }

        /// The placement for a map whose up is `up`: identity when none was given.
        public func pose(up: MapUpDirection) throws(Refusal) -> Pose {
            guard let text = placement else { return .identity }
            let values = text.split(separator: ",", omittingEmptySubsequences: false)
                .map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard values.count == 3 || values.count == 4, values.allSatisfy({ $0?.isFinite == true }) else {
                throw Refusal("'\(path)@\(text)': a placement is @x,y,z or @x,y,z,yaw (numbers)")
            }
            let t = SIMD3(values[0]!, values[1]!, values[2]!)
            guard values.count == 4, values[3]! != 0 else { return Pose(rotation: .identity, translation: t) }
            guard let axis = up.vector else {
                throw Refusal("'\(path)': a yaw needs the map's up, and this map's is unknown (map build --up)")
            }
            return Pose(rotation: Quaternion(axis: axis, angle: values[3]! * .pi / 180), translation: t)
        }
    }

    /// Names parts apart: a part whose map's name is taken already is named by its file
    /// (a/gallery.vpsmap, b/gallery.vpsmap), then numbered.
    public static func uniqueName(_ name: String, path: String, taken: [String]) -> String {
        guard taken.contains(name) else { return name }
        let file = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return taken.contains(file) ? "\(file)-\(taken.count + 1)" : file
    }
}
