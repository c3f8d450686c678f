import Localization
import Foundation
import Geometry
import Benchmarks
import MapBuilding
import MapModel
import Support
import TestSupport
import VPSModel
import Testing
import Vision

/// A folder of real-photo splits, as the real-photo suites use it: each split's map is built
/// once per test run (a debug build takes most of a minute), and the checks every scene
/// runs are written once.
struct RealPhotoScene {
    let directory: URL

    func split(_ name: String) throws -> RealPhotoSplit {
        try RealPhotoSplit.load(from: directory.appendingPathComponent(name, isDirectory: true))
    }

    /// The map of a split, built once per test run.
    func map(_ name: String, features: FeatureType = .orb,
             simulatedViews: MapBuildOptions.SimulatedViews = .fewPhotos) throws -> VPSMap {
        let key = directory.appendingPathComponent(name, isDirectory: true).path + " \(features) \(simulatedViews)"
        return try Self.builtMaps.withLock { maps in
            if let m = maps[key] { return m }
            var bench = RealPhotoBenchmark(split: try split(name))
            bench.buildOptions.featureType = features
            bench.buildOptions.simulatedViews = simulatedViews
            let m = try bench.buildMap()
            maps[key] = m
            return m
        }
    }
    private static let builtMaps = Locked<[String: VPSMap]>([:])

    /// Localizes a split's queries on its map: none may be placed wrongly, and at least
    /// `atLeast` must be placed within the tolerances. Returns the outcome.
    @discardableResult
    func expectPlacesFramesAndNoneWrongly(split name: String, atLeast: Int, features: FeatureType = .orb,
                                          simulatedViews: MapBuildOptions.SimulatedViews = .fewPhotos)
        throws -> RealPhotoBenchmark.MethodResult {
        let r = try RealPhotoBenchmark(split: try split(name))
            .runLocalizer(on: try map(name, features: features, simulatedViews: simulatedViews))
        let report = r.frames.map { "\($0.name) \($0.verdict.rawValue) \($0.reason ?? "")" }.joined(separator: "; ")
        #expect(r.count(.wrong) == 0, "\(name): \(report)")
        #expect(r.count(.success) >= atLeast, "\(name): \(r.count(.success))/\(r.frames.count): \(report)")
        return r
    }

    /// Localizes every frame of the shipped recorded `sessions` (other scenes) on a split's
    /// map: none may be placed.
    func expectRejectsFramesOfOtherScenes(split name: String, sessions: [String], features: FeatureType = .orb) throws {
        let localizer = try Localizer(map: try map(name, features: features))
        for session in sessions {
            let dir = PackageDirectory.root.appendingPathComponent("Datasets/\(session)")
            let s = try RecordedSession.load(from: dir)
            var placed: [String] = []
            for frame in s.frames {
                let bytes = try [UInt8](Data(contentsOf: RecordedSession.imageURL(of: frame, in: dir)))
                if try localizer.localize(encoded: bytes, intrinsics: s.camera, gravity: frame.gravity).isLocalized {
                    placed.append(frame.id)
                }
            }
            #expect(placed.isEmpty, "\(name): \(session) frames \(placed) placed in a map of another scene")
        }
    }

    /// Localizes every photo of a split (map photos and queries) mirrored left to right on
    /// the split's map, `camera` giving a mirrored photo's intrinsics; returns the photos placed.
    func placedMirroredPhotos(split name: String,
                              camera: (RealPhotoSplit.Image, GrayImage) -> CameraIntrinsics = { image, _ in image.intrinsics })
        throws -> [(name: String, result: LocalizationResult)] {
        let split = try split(name)
        let localizer = try Localizer(map: try map(name))
        var placed: [(name: String, result: LocalizationResult)] = []
        for image in split.map.images + split.queries {
            let photo = try GrayImage(decoding: [UInt8](Data(contentsOf: split.url(of: image))))
            let r = try localizer.localize(image: try photo.mirroredLeftToRight(), intrinsics: camera(image, photo))
            if r.isLocalized { placed.append((image.name, r)) }
        }
        return placed
    }
}

extension GrayImage {
    /// The image mirrored left to right: no view of the scene it shows.
    func mirroredLeftToRight() throws -> GrayImage {
        let w = width
        return try GrayImage(width: w, height: height, pixels: (0..<pixels.count).map { i in
            pixels[(i / w) * w + (w - 1 - i % w)]
        })
    }
}
