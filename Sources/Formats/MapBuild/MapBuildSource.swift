/// Where `arcloud map build` takes its posed images from: exactly one of a recorded
/// session, a COLMAP model or a nerfstudio capture.
public enum MapBuildSource: Sendable, Hashable {
    /// A recorded session folder; its frames with a ground-truth pose are used.
    case session(path: String)
    /// A COLMAP model folder, and the folder its image names are relative to (nil:
    /// `COLMAPModel.defaultImageFolder`).
    case colmap(model: String, images: String?)
    /// A nerfstudio transforms.json or the folder holding it; with `skipMissing`, frames
    /// whose image is missing are left out instead of failing the build.
    case nerfstudio(path: String, skipMissing: Bool)

    /// Options that cannot go together, or no source at all: a usage mistake, the whole
    /// message naming the options.
    public struct Conflict: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The one source the options `--session`, `--colmap` (with `--images`) and
    /// `--nerfstudio` (with `--skip-missing`) name.
    public init(session: String?, colmap: String?, images: String?, nerfstudio: String?,
                skipMissing: Bool) throws(Conflict) {
        let given = [("session", session), ("colmap", colmap), ("nerfstudio", nerfstudio)].filter { $0.1 != nil }
        if given.count > 1 {
            throw Conflict(description: "give one of --session, --colmap, --nerfstudio, not "
                               + given.map { "--" + $0.0 }.joined(separator: " and "))
        }
        if skipMissing, nerfstudio == nil { throw Conflict(description: "--skip-missing goes with --nerfstudio") }
        if let nerfstudio {
            if images != nil {
                throw Conflict(description: "--images goes with --colmap; nerfstudio image paths are relative to transforms.json")
            }
            self = .nerfstudio(path: nerfstudio, skipMissing: skipMissing)
        } else if let session {
            if images != nil { throw Conflict(description: "--images goes with --colmap, not --session") }
            self = .session(path: session)
        } else if let colmap {
            self = .colmap(model: colmap, images: images)
        } else {
            throw Conflict(description: "give --session <dir>, --colmap <model-dir> or --nerfstudio <transforms.json>")
        }
    }
}
