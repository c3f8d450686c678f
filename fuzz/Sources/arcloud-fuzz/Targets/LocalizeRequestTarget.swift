import Foundation
import Formats
import Localization
import MapModel
import Storage
import VPSModel
import Vision

extension FuzzTarget {
    /// The `request` part of `POST /v1/localize`, decoded and checked as the server does,
    /// then localized on a three-keyframe gallery map: against a real walk frame when the
    /// intrinsics are for 640x480 (so priors, gravity and distortion reach the solver),
    /// otherwise against a blank image of the requested size.
    static let localizeRequest = FuzzTarget(name: "localize-request", summary: "localize request JSON, then a localization") { bytes in
        guard let request = try? JSONDecoder().decode(LocalizeRequest.self, from: Data(bytes)),
              request.intrinsics.problem == nil else { return }
        let size = (request.intrinsics.width, request.intrinsics.height)
        let image: GrayImage
        if size == (GalleryFixture.frame.width, GalleryFixture.frame.height) {
            image = GalleryFixture.frame
        } else if size.0 * size.1 <= 1 << 20,
                  let blank = try? GrayImage(width: size.0, height: size.1, pixels: [UInt8](repeating: 128, count: size.0 * size.1)) {
            image = blank
        } else {
            return
        }
        _ = try? GalleryFixture.localizer.localize(image: image, intrinsics: request.intrinsics,
                                                   prior: request.prior, gravity: request.gravity)
    }
}

/// A small map of the gallery (three keyframes: the map target's seed, so that loading
/// it for each simulated session stays cheap) and a query frame, loaded once per process.
enum GalleryFixture {
    static let mapURL = packageRoot.appendingPathComponent("fuzz/corpus/map/three-keyframes.vpsmap")

    static let localizer: Localizer = {
        do { return try Localizer(map: try VPSMap.load(from: mapURL.path)) } catch {
            fatalError("arcloud-fuzz needs \(mapURL.path): \(error)")
        }
    }()

    static let frame: GrayImage = {
        let url = packageRoot.appendingPathComponent("Datasets/gallery-query-walk/frames/000000.jpg")
        do { return try GrayImage(decoding: [UInt8](try Data(contentsOf: url))) } catch {
            fatalError("arcloud-fuzz needs \(url.path): \(error)")
        }
    }()
}
