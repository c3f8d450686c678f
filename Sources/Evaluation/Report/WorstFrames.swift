import Foundation
import Geometry
import Vision
import VPSModel

/// The frames a reader should look at first — the failed ones and those placed farthest
/// off — each as its image with the inlier matches drawn over it.
///
/// Each inlier keypoint is a green ring. With ground truth, a line leads from it to where
/// the true pose projects the matched map point: short everywhere for a right pose, long
/// and all one way for a wrong one. The image is embedded as a downscaled gray JPEG (a
/// data URI), so the report stays one file.
public struct WorstFrames {
    /// Frames shown, at most, and failed frames among them.
    public static let shown = 6, maxFailedShown = 3

    var outcomes: FrameOutcomes
    var thresholds: ReportThresholds
    var map: ReportMap
    var camera: CameraIntrinsics?
    /// Image file of a frame, by frame id.
    var images: (String) -> URL?
    var unit: ReportMap.LengthUnit

    /// Frames shown: up to `maxFailed` failed frames, then the localized frames with the
    /// largest error relative to the primary threshold (without ground truth: the fewest
    /// inliers), `count` in all.
    static func select<Outcomes: RandomAccessCollection<FrameOutcome>>(
        _ outcomes: Outcomes, thresholds: ReportThresholds, count: Int = shown, maxFailed: Int = maxFailedShown
    ) -> [FrameOutcome] where Outcomes.Index == Int {
        // The few best of each kind kept as the frames go by, by key and index, never a
        // list of every frame: a long run's outcomes are read back from disk, one at a time.
        let failed = Array(outcomes.lazy.filter { !$0.result.isLocalized }.prefix(maxFailed))
        let primary = thresholds.levels.first ?? (translation: 1, degrees: 1)
        let wanted = max(0, count - failed.count)
        var scored: [(index: Int, badness: Double)] = [], unscored: [(index: Int, inliers: Int)] = []
        for i in outcomes.indices where wanted > 0 {
            let o = outcomes[i]
            if let e = o.error {
                // Worst first; of equal ones the earlier frame first (a stable sort's order).
                let badness = max(e.translation / primary.translation, e.rotationDegrees / primary.degrees)
                scored.insert((i, badness), at: scored.firstIndex { $0.badness < badness } ?? scored.count)
                if scored.count > wanted { scored.removeLast() }
            } else if o.result.isLocalized {
                let inliers = o.result.inliers
                unscored.insert((i, inliers), at: unscored.firstIndex { $0.inliers > inliers } ?? unscored.count)
                if unscored.count > wanted { unscored.removeLast() }
            }
        }
        let rest = (scored.map(\.index) + unscored.map(\.index)).prefix(wanted)
        return failed + rest.map { outcomes[$0] }
    }

    /// Longest side of an embedded image, in pixels.
    static let thumbnailSide = 640

    func html() -> String {
        let chosen = WorstFrames.select(outcomes, thresholds: thresholds)
        guard !chosen.isEmpty else { return "<p>No frames to show.</p>" }
        let d = LengthDisplay.forLengths(upTo: chosen.compactMap { $0.error?.translation }.max() ?? 0.01, unit: unit)
        var s = "<div class=\"worst\">\n"
        for o in chosen {
            var caption = "<b><a href=\"#frame-\(escape(o.frameId))\">frame \(escape(o.frameId))</a></b>"
            if let image = o.image { caption += " (\(escape(image)))" }
            if let e = o.error {
                caption += " — error " + d.text(e.translation) + String(format: ", %.2f°", e.rotationDegrees)
            } else if o.result.isLocalized {
                caption += " — localized (no ground truth)"
            } else {
                caption += " — failed: " + escape(o.result.reason ?? "not localized")
            }
            caption += " — \(o.result.inliers) inliers of \(o.result.matches) matches"
            s += "<figure>\(picture(o))<figcaption>\(caption)</figcaption></figure>\n"
        }
        return s + "</div>"
    }

    /// The image with its matches, or a note saying why there is no image.
    func picture(_ o: FrameOutcome) -> String {
        guard let url = images(o.frameId) else { return "<div class=\"noimage\">image not known</div>" }
        let thumb: (jpeg: Data, width: Int, height: Int)
        do { thumb = try WorstFrames.thumbnail(of: url, maxSide: WorstFrames.thumbnailSide) } catch {
            return "<div class=\"noimage\">cannot read \(escape(url.lastPathComponent)): \(escape("\(error)"))</div>"
        }
        let w = camera?.width ?? thumb.width, h = camera?.height ?? thumb.height
        // The overlay is in the image's own pixels; the thumbnail is stretched onto them.
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(w) \(h)\" width=\"100%\">"
        svg += "<image href=\"data:image/jpeg;base64,\(thumb.jpeg.base64EncodedString())\" x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\" preserveAspectRatio=\"none\"/>"
        let r = Double(max(w, h)) / 180
        if let truth = o.groundTruth, let camera {
            let cameraFromMap = truth.inverse
            for m in o.result.inlierMatches where Int(m.point) < map.points.count {
                guard let q = camera.project(cameraFromMap.apply(map.points[Int(m.point)])) else { continue }
                svg += "<line x1=\"\(svgNumber(Double(m.pixel.x)))\" y1=\"\(svgNumber(Double(m.pixel.y)))\" "
                    + "x2=\"\(svgNumber(q.x))\" y2=\"\(svgNumber(q.y))\" stroke=\"#ff7f00\" stroke-width=\"\(svgNumber(r / 2.5))\"/>"
            }
        }
        for m in o.result.inlierMatches {
            svg += "<circle cx=\"\(svgNumber(Double(m.pixel.x)))\" cy=\"\(svgNumber(Double(m.pixel.y)))\" r=\"\(svgNumber(r))\" "
                + "fill=\"none\" stroke=\"#33ff66\" stroke-width=\"\(svgNumber(r / 2.5))\"/>"
        }
        return svg + "</svg>"
    }

    /// A gray JPEG of the image at `url`, box-filtered down by a whole factor so its longer
    /// side is at most `maxSide`.
    static func thumbnail(of url: URL, maxSide: Int) throws -> (jpeg: Data, width: Int, height: Int) {
        let image = try GrayImage(decoding: [UInt8](Data(contentsOf: url)))
        let f = max(1, (max(image.width, image.height) + maxSide - 1) / maxSide)
        let w = image.width / f, h = image.height / f
        var pixels = [UInt8](repeating: 0, count: w * h)
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<h {
                for x in 0..<w {
                    var sum = 0
                    for dy in 0..<f { for dx in 0..<f { sum += Int(src[(y * f + dy) * image.width + x * f + dx]) } }
                    pixels[y * w + x] = UInt8(sum / (f * f))
                }
            }
        }
        return (try ImageEncoding.jpeg(gray: pixels, width: w, height: h, quality: 80), w, h)
    }
}
