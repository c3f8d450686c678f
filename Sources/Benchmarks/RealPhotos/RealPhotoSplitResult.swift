import Foundation
import Vision

/// One split's results in `bench real`, as `--json` prints them.
public struct RealPhotoSplitResult: Sendable, Codable {
    public var scene: String
    public var split: String
    /// Photos arcloud's map is built from.
    public var mapPhotos: Int
    public var queries: Int
    /// The scale errors are judged against (`RealPhotoSplit.sceneScale`), in the model's units.
    public var sceneScale: Double
    /// Wall-clock seconds of arcloud's map build.
    public var mapBuildSeconds: Double
    /// arcloud first, then the peers in the order orb, sift, opencv.
    public var methods: [RealPhotoBenchmark.MethodResult]
}

/// `bench real --json`: OpenCV's version and every split's results.
public struct RealPhotoReport: Sendable, Codable {
    public var openCV: String
    public var splits: [RealPhotoSplitResult]

    /// The results with this process's OpenCV version.
    public init(splits: [RealPhotoSplitResult]) { openCV = openCVVersion; self.splits = splits }
}

extension RealPhotoBenchmark {
    /// Builds arcloud's map (timed), localizes every query with it, then runs the peers asked for.
    public func run(peers: RealPhotoPeers) throws -> RealPhotoSplitResult {
        let scale = try sceneScale()
        let t0 = DispatchTime.now().uptimeNanoseconds
        let map = try buildMap()
        let buildSeconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        var methods = [try runLocalizer(on: map)]
        if peers.includes(.orb) { methods.append(try runReferencePeer(.orb)) }
        if peers.includes(.sift) { methods.append(try runReferencePeer(.sift)) }
        if peers.includes(.opencv) { methods.append(try runOpenCVPeer(on: map)) }
        return RealPhotoSplitResult(scene: split.scene, split: split.name, mapPhotos: split.map.images.count,
                                    queries: split.queries.count, sceneScale: scale, mapBuildSeconds: buildSeconds,
                                    methods: methods)
    }
}
