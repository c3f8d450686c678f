extension LocalizeResponse {
    /// The HTTP answer for a localizer result: `rejected` becomes `notLocalized` with the
    /// reason; stage timings become the `timings` dictionary (milliseconds).
    public init(_ result: LocalizationResult, mapId: String) {
        var timings: [String: Double] = ["total": result.timings.total]
        for (name, ms) in result.timings.stages { timings[name] = ms }
        self.init(status: result.isLocalized ? .localized : .notLocalized, mapId: mapId, pose: result.pose,
                  sectionId: result.sectionId, inliers: result.inliers,
                  reprojectionError: result.reprojectionError.isFinite ? result.reprojectionError : nil,
                  reason: result.reason, timings: timings)
    }
}
