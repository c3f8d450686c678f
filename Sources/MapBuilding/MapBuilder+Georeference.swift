import Foundation
import Geodesy
import Geometry
import MapModel
import Support
import VPSModel

extension MapBuilder {
    /// 11. The map's place on the earth.
    ///
    /// With ground control points given (`controlPoints` not nil), fitted to them alone:
    /// each is triangulated from its observations (`ControlPointPlacement`; refused points
    /// are logged by name with the reason) and the usable ones, at least 3, are the fit's
    /// correspondences with `MapBuildOptions.controlPointAccuracy`. The frames' GPS readings
    /// are not mixed in: surveyed points are hundreds of times more accurate, so readings
    /// would add nothing but their biases (a phone's are correlated along a walk and do not
    /// average out), and the fit's inlier test, scaled to each reading's own accuracy,
    /// would only have them disagree. Too few usable points leave the map without a
    /// georeference rather than falling back on GPS the user chose not to trust.
    ///
    /// Otherwise fitted to the frames' GPS readings (all frames, not only the keyframes:
    /// every reading narrows the fit): nil when fewer than three frames have one.
    ///
    /// Either way a robust similarity (`SimilarityFit`); when the fit is refused (a span too
    /// short for the positions' noise, no consensus) the map is still built and answers in
    /// map coordinates only. On a map of unknown up, the cameras' mean up (`camerasUp`)
    /// settles the roll a path along a line leaves free.
    func georeference(_ frames: [MapBuildFrame], controlPoints: [ControlPoint]?, up: MapUpDirection, units: MapUnits,
                      _ run: inout StageRun, _ log: (String) -> Void) -> Georeference? {
        var options = SimilarityFit.Options()
        options.mapUp = up.vector
        if up.vector == nil { options.upHint = Self.camerasUp(frames) }
        // A metric map's scale is known: noise in the positions would only stretch it.
        if units == .metres { options.scale = 1 }
        let correspondences: [SimilarityFit.Correspondence]
        let what: String
        var measuresHeight: [Bool]?
        if let controlPoints {
            for p in controlPoints where !p.unmatchedImages.isEmpty {
                log("georeference: ground control point '\(p.id)': images not among the build's frames: "
                    + p.unmatchedImages.joined(separator: ", "))
            }
            let placement = ControlPointPlacement(minParallaxDegrees: self.options.minParallaxDegrees,
                                                  maxReprojectionError: self.options.maxControlPointError)
            let (placed, refused) = placement.place(controlPoints, frames: frames)
            for r in refused { log("georeference: ground control point '\(r.id)' refused: \(r.reason)") }
            let accuracy = self.options.controlPointAccuracy
            correspondences = placed.map { p in
                SimilarityFit.Correspondence(mapPosition: p.mapPosition, reading: GPSReading(
                    position: p.position, accuracy: accuracy, altitudeAccuracy: p.hasAltitude ? accuracy : nil))
            }
            // A point without a surveyed altitude gives the height no weight (its height 0
            // is no measurement), and never disagrees with the fit vertically.
            options.defaultAltitudeAccuracy = GPSReading.accuracyRange.upperBound
            measuresHeight = placed.map(\.hasAltitude)
            options.source = .controlPoints
            what = "ground control points"
            guard placed.count >= 3 else {
                run.report.georeference = "not georeferenced: \(placed.count) of \(controlPoints.count) ground control "
                    + "points usable, 3 needed"
                log(run.finish("georeference", run.report.georeference!))
                return nil
            }
        } else {
            correspondences = frames.compactMap { f in
                f.gps.map { SimilarityFit.Correspondence(mapPosition: f.pose.center, reading: $0) }
            }
            guard !correspondences.isEmpty else { return nil }
            what = "GPS readings"
        }
        do {
            let fit = try SimilarityFit.fit(correspondences, options: options)
            var g = fit.georeference
            if let measuresHeight {
                g.residuals!.verticalRMS = Self.verticalRMS(g, correspondences, kept: fit.isInlier, measured: measuresHeight)
            }
            let r = g.residuals!
            let digits = options.source == .controlPoints ? 3 : 1
            run.report.georeference = String(format: "from %d of %d %@, horizontal RMS %.*f m, vertical %.*f m",
                                             r.inliers, r.readings, what, digits, r.horizontalRMS, digits, r.verticalRMS)
                + (fit.usedUpHint ? " (readings along a line: up from the cameras)" : "")
            log(run.finish("georeference", run.report.georeference!))
            return g
        } catch {
            run.report.georeference = "not georeferenced: \(error)"
            log(run.finish("georeference", run.report.georeference!))
            return nil
        }
    }

    /// The RMS of the kept points' vertical residuals over those whose height was
    /// surveyed (0 when none was): a point without an altitude, height 0 in the fit, would
    /// otherwise report its own height as an error.
    static func verticalRMS(_ g: Georeference, _ c: [SimilarityFit.Correspondence], kept: [Bool], measured: [Bool]) -> Double {
        let frame = g.frame
        let residuals = c.indices.filter { kept[$0] && measured[$0] }.map { i in
            frame.enu(of: c[i].reading.position).z - g.enu(ofMapPoint: c[i].mapPosition).z
        }
        return Statistics.rms(residuals) ?? 0
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
