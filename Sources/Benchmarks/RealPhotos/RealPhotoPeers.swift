/// Which yardsticks `bench real` runs beside arcloud (`--peers`).
public enum RealPhotoPeers: String, Sendable, CaseIterable {
    /// The reference ORB pipeline with its own map.
    case orb
    /// The same with SIFT.
    case sift
    /// `bench localize`'s OpenCV peer on arcloud's map and query features.
    case opencv
    case all
    case none

    /// Whether `peer` (`orb`, `sift` or `opencv`) is among them.
    public func includes(_ peer: RealPhotoPeers) -> Bool { self == .all || self == peer }
}
