import MapBuilding

extension MapBuildOptions.SimulatedViews {
    /// `--affine-views` (every map), `--no-affine-views` (none) or neither (maps of few
    /// photos), as `map build` and `bench real` take them.
    static func from(affineViews: Bool, noAffineViews: Bool) throws -> Self {
        switch (affineViews, noAffineViews) {
        case (true, true): throw UsageError("--affine-views and --no-affine-views contradict each other")
        case (true, false): return .always
        case (false, true): return .never
        case (false, false): return .fewPhotos
        }
    }
}
