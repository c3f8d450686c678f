import Foundation
import Vision
import Support
import VPSModel

/// Stage 8b, on a map of few photos: each point also gets the descriptors ORB finds at its
/// observations in ASIFT's simulated views of the keyframes that see it (`AffineView`:
/// tilts √2 and 2 at four angles each). A query taken 45° from every map photo sees each
/// surface foreshortened as no map photo does; a simulated view that foreshortens it the
/// same way gives the point a descriptor that query's features match. The map pays for the
/// views once; the query extracts its features as always. They are kept apart from the
/// photos' own descriptors: the localizer tries those first, and these only for a frame
/// they do not place (more descriptors per point make the ratio test stricter and the
/// vocabulary coarser, which loses frames the photos' own would place).
extension MapBuilder {
    /// Features of a view keypoint must lie within this many pixels (at its observation's
    /// pyramid level) of the observation, mapped back to the photo, to describe its point.
    static let affineMatchRadius = 2.0

    func addAffineViewDescriptors(_ points: inout DescribedPoints, _ frames: [MapBuildFrame], images: some KeyframeImages,
                                  threads: Int, _ run: inout StageRun, _ log: (String) -> Void) throws {
        // Each keyframe's observations: (point, pixel, octave).
        var grouped = [[(point: UInt32, pixel: SIMD2<Double>, octave: UInt8)]](repeating: [], count: frames.count)
        for o in points.observations {
            grouped[Int(o.keyframe)].append((o.point, SIMD2(Double(o.pixel.x), Double(o.pixel.y)), o.octave))
        }
        let byKeyframe = grouped
        let orb = { var o = options.orb; o.featureCount = options.featuresPerKeyframe(keyframes: frames.count); return o }()
        let found = try WorkerThreads.map(count: frames.count, threads: threads,
                                          makeState: { try FeatureExtractor(options.featureType, options: orb) }) { extractor, k -> [(UInt32, [UInt8])] in
            guard !byKeyframe[k].isEmpty else { return [] }
            let image = try images.image(of: frames[k])
            var out: [(UInt32, [UInt8])] = []
            for v in AffineView.mapViews {
                let view = try AffineView(of: image, tilt: v.tilt, angleDegrees: v.angleDegrees)
                let f = try extractor.extract(view.image)
                let back = f.keypoints.map { view.originalPixel(of: SIMD2(Double($0.x), Double($0.y))) }
                let grid = FeatureGrid(points: back, width: image.width, height: image.height)
                for o in byKeyframe[k] {
                    let radius = Self.affineMatchRadius * pow(Double(orb.scaleFactor), Double(o.octave))
                    var best: Int?, bestD2 = radius * radius
                    grid.forEach(inBoxFrom: o.pixel - radius, to: o.pixel + radius) { i in
                        let d = back[i] - o.pixel
                        if (d * d).sum() <= bestD2 { bestD2 = (d * d).sum(); best = i }
                    }
                    guard let i = best else { continue }
                    out.append((o.point, Array(f.descriptors[32 * i..<32 * i + 32])))
                }
            }
            return out
        }
        // Per point: its view descriptors so far, then the simulated ones that differ from them.
        var perPoint = [[[UInt8]]](repeating: [], count: points.count)
        for (i, p) in points.viewPoints.enumerated() {
            perPoint[Int(p)].append(Array(points.viewDescriptors[32 * i..<32 * i + 32]))
        }
        let selection = ViewDescriptorSelection(clusterDegrees: options.viewClusterDegrees,
                                                maxPerPoint: options.maxViewDescriptorsPerPoint)
        var simulated = [[[UInt8]]](repeating: [], count: points.count)
        for (point, d) in found.joined() {
            let p = Int(point)
            // The view keypoint must be the same corner: its descriptor within
            // `maxAffineDistance` of one the point has (a neighbour's would not be), and not
            // nearly equal to one (it would add nothing).
            let nearest = perPoint[p].map { Self.hamming($0[...], d[...]) }.min() ?? .max
            guard simulated[p].count < options.maxAffineDescriptorsPerPoint, nearest > selection.duplicateDistance,
                  nearest <= options.maxAffineDistance else { continue }
            perPoint[p].append(d)
            simulated[p].append(d)
        }
        // Kept apart from the photos' own descriptors (`VPSMap.simulatedViewDescriptors`).
        points.simulatedDescriptors = []
        points.simulatedPoints = []
        for (p, list) in simulated.enumerated() {
            for d in list { points.simulatedDescriptors += d; points.simulatedPoints.append(UInt32(p)) }
        }
        let added = points.simulatedPoints.count
        run.report.simulatedViewDescriptors = added
        log(run.finish("affine views", "\(added) descriptors from \(AffineView.mapViews.count) simulated views of each of "
                       + "\(frames.count) keyframes"))
    }
}
