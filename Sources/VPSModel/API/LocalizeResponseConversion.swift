extension LocalizeResponse {
    /// The HTTP answer for a localizer result: `rejected` becomes `notLocalized` with the
    /// reason; stage timings become the `timings` dictionary (milliseconds).
    public init(_ result: LocalizationResult, mapId: String, mapVersion: String? = nil) {
        var timings: [String: Double] = ["total": result.timings.total]
        for (name, ms) in result.timings.stages { timings[name] = ms }
        self.init(status: result.isLocalized ? .localized : .notLocalized, mapId: mapId, pose: result.pose,
                  sectionId: result.sectionId, inliers: result.inliers,
                  reprojectionError: result.reprojectionError.isFinite ? result.reprojectionError : nil,
                  reason: result.reason, timings: timings, mapVersion: mapVersion,
                  matches: result.matches, usedPrior: result.usedPrior, accuracy: result.accuracy,
                  geoPose: result.geoPose, geoAccuracy: result.geoAccuracy, locationPrior: result.locationPrior)
    }
}

extension LocalizationResult {
    /// The localizer result a service answer stands for: the inverse of
    /// `LocalizeResponse.init(_:mapId:mapVersion:)`, so a batch run over the service
    /// writes the same outputs as an embedded one.
    public init(_ response: LocalizeResponse) {
        var timings = StageTimings()
        let t = response.timings
        timings.decode = t["decode"] ?? 0
        timings.deblur = t["deblur"] ?? 0
        timings.extract = t["extract"] ?? 0
        timings.retrieve = t["retrieve"] ?? 0
        timings.match = t["match"] ?? 0
        timings.solve = t["solve"] ?? 0
        timings.refine = t["refine"] ?? 0
        timings.verify = t["verify"] ?? 0
        timings.total = t["total"] ?? 0
        self.init(status: response.status == .localized ? .localized : .rejected, pose: response.pose,
                  sectionId: response.sectionId, inliers: response.inliers, matches: response.matches ?? 0,
                  reprojectionError: response.reprojectionError ?? 0, reason: response.reason,
                  usedPrior: response.usedPrior ?? false, timings: timings)
        accuracy = response.accuracy
        geoPose = response.geoPose
        geoAccuracy = response.geoAccuracy
        locationPrior = response.locationPrior
    }
}
