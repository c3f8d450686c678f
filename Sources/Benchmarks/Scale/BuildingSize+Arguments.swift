import SceneSynthesis

extension BuildingSize {
    /// `FxWxR`: floors, wings per floor, rooms per wing.
    public var shape: String { "\(floors)x\(wings)x\(rooms)" }
    /// The options of `arcloud dataset synth` that make this building.
    public var arguments: [String] { ["--floors", "\(floors)", "--wings", "\(wings)", "--rooms", "\(rooms)"] }
}
