import Vision

/// Input the localizer cannot work with. A frame that is fine but cannot be placed in the
/// map is not an error: it is a `LocalizationResult` with status `.rejected`.
public enum LocalizationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The intrinsics cannot describe a camera; the message says why.
    case invalidIntrinsics(String)
    /// The intrinsics are for another image size than the image has.
    case imageSizeMismatch(image: (width: Int, height: Int), intrinsics: (width: Int, height: Int))
    /// The image could not be decoded (empty, truncated, corrupt, unsupported, too large).
    case image(VisionError)
    /// The map has no points or no retrieval vocabulary.
    case emptyMap(String)
    /// The gravity vector is zero or not finite.
    case invalidGravity
    /// The location prior cannot be used (`LocationPrior.problem` says why).
    case invalidLocationPrior(String)
    /// The caller's `LocalizationCancellation` stopped the localization (deadline passed).
    case cancelled

    public var description: String {
        switch self {
        case .invalidIntrinsics(let why): "invalid intrinsics: \(why)"
        case let .imageSizeMismatch(i, k):
            "the image is \(i.width)x\(i.height) but the intrinsics are for \(k.width)x\(k.height)"
        case .image(let e): "image: \(e)"
        case .emptyMap(let name): "map '\(name)' has no points or no retrieval vocabulary"
        case .invalidGravity: "gravity must be a finite, nonzero vector in camera coordinates"
        case .invalidLocationPrior(let why): "invalid location prior: \(why)"
        case .cancelled: "the localization was cancelled before it finished"
        }
    }

    public static func == (a: Self, b: Self) -> Bool { a.description == b.description }
    public func hash(into h: inout Hasher) { h.combine(description) }
}
