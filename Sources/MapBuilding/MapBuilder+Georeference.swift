import Geodesy
import MapModel
import VPSModel

extension MapBuilder {
    /// 11. The map's place on the earth, fitted to its frames' GPS readings (all frames,
    /// not only the keyframes: every reading narrows the fit) as a robust similarity
    /// (`SimilarityFit`): nil when fewer than three frames have one, or when the fit is
    /// refused (a path too short for the readings' noise, no consensus). A map is still
    /// built then; it answers in map coordinates only.
    func georeference(_ frames: [MapBuildFrame], up: MapUpDirection, units: MapUnits, _ run: inout StageRun,
                      _ log: (String) -> Void) -> Georeference? {
        let correspondences = frames.compactMap { f in
            f.gps.map { SimilarityFit.Correspondence(mapPosition: f.pose.center, reading: $0) }
        }
        guard !correspondences.isEmpty else { return nil }
        var options = SimilarityFit.Options()
        options.mapUp = up.vector
        // A metric map's scale is known: GPS noise would only stretch it.
        if units == .metres { options.scale = 1 }
        do {
            let g = try SimilarityFit.fit(correspondences, options: options).georeference
            let r = g.residuals!
            run.report.georeference = String(format: "from %d of %d GPS readings, horizontal RMS %.1f m, vertical %.1f m",
                                             r.inliers, r.readings, r.horizontalRMS, r.verticalRMS)
            log(run.finish("georeference", run.report.georeference!))
            return g
        } catch {
            run.report.georeference = "not georeferenced: \(error)"
            log(run.finish("georeference", run.report.georeference!))
            return nil
        }
    }
}
