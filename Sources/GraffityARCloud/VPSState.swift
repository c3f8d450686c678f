/// Where the visual positioning of a session stands.
public enum VPSState: Sendable, Hashable {
    /// No session host has loaded (or it was removed, or the SDK shut down).
    case notStarted
    /// The host has loaded and the map's scene content is being fetched.
    case initializing
    /// Scene ready; VPS requests run until one localizes.
    case localizing
    /// The last accepted fix placed the camera in this map section; tracking carries it
    /// forward with device odometry between VPS requests.
    case localized(sectionId: String)
    /// VPS stopped on an error that retrying will not fix, or after the retry budget was
    /// spent. `GraffityARCloud.reset()` re-arms it.
    case failed(ARCloudError)

    /// The section of a `.localized` state, else nil.
    public var sectionId: String? {
        if case .localized(let id) = self { return id }
        return nil
    }

    /// True in `.localized`.
    public var isLocalized: Bool { sectionId != nil }
}
