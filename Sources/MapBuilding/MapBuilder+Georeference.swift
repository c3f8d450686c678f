import Geodesy
import Geometry
import MapModel
import VPSModel

extension MapBuilder {
    /// 11. The map's place on the earth, fitted to its frames' GPS readings (all frames,
    /// not only the keyframes: every reading narrows the fit) as a robust similarity
    /// (`SimilarityFit`): nil when fewer than three frames have one, or when the fit is
    /// refused (a path too short for the readings' noise, no consensus). A map is still
    /// built then; it answers in map coordinates only. On a map of unknown up, the
    /// cameras' mean up (`camerasUp`) settles the roll a path along a line leaves free.
    func georeference(_ frames: [MapBuildFrame], up: MapUpDirection, units: MapUnits, _ run: inout StageRun,
                      _ log: (String) -> Void) -> Georeference? {
        let correspondences = frames.compactMap { f in
            f.gps.map { SimilarityFit.Correspondence(mapPosition: f.pose.center, reading: $0) }
        }
        guard !correspondences.isEmpty else { return nil }
        var options = SimilarityFit.Options()
        options.mapUp = up.vector
        if up.vector == nil { options.upHint = Self.camerasUp(frames) }
        // A metric map's scale is known: GPS noise would only stretch it.
        if units == .metres { options.scale = 1 }
        do {
            let fit = try SimilarityFit.fit(correspondences, options: options)
            let g = fit.georeference, r = g.residuals!
            run.report.georeference = String(format: "from %d of %d GPS readings, horizontal RMS %.1f m, vertical %.1f m",
                                             r.inliers, r.readings, r.horizontalRMS, r.verticalRMS)
                + (fit.usedUpHint ? " (readings along a line: up from the cameras)" : "")
            log(run.finish("georeference", run.report.georeference!))
            return g
        } catch {
            run.report.georeference = "not georeferenced: \(error)"
            log(run.finish("georeference", run.report.georeference!))
            return nil
        }
    }

    /// The map's up as its cameras suggest: the mean of their image-up axes (−y of the
    /// OpenCV camera) in map coordinates, as COLMAP's orientation aligner assumes photos
    /// are taken upright. Nil when the cameras disagree (mean resultant length under 0.9,
    /// about 25° of spread: portrait and landscape mixed, or looking down at a table).
    static func camerasUp(_ frames: [MapBuildFrame]) -> SIMD3<Double>? {
        guard !frames.isEmpty else { return nil }
        let sum = frames.reduce(SIMD3<Double>.zero) { $0 + $1.pose.rotation.matrix * SIMD3(0, -1, 0) }
        let mean = sum / Double(frames.count)
        return length(mean) >= 0.9 ? mean / length(mean) : nil
    }
}
