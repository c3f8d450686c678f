import Testing
import Foundation
import Geometry
import VPS

/// Real handheld photos (`../shared/real/monstree`, beside the package as CI has it):
/// arcloud's map builder and localizer, scored as `../shared/real/README.md` scores them.
@Suite(.serialized) struct RealPhotoTests {
    static let real = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("../shared/real").standardized

    static func split(_ name: String) throws -> RealPhotoSplit {
        let dir = real.appendingPathComponent("monstree/\(name)", isDirectory: true)
        return try RealPhotoSplit.load(from: dir)
    }

    static func run(_ split: RealPhotoSplit) throws -> RealPhotoBenchmark.MethodResult {
        let bench = RealPhotoBenchmark(split: split)
        return try bench.runLocalizer(on: try bench.buildMap())
    }

    /// Measured on this tree: s3 8/12, s6 4/15 within (2°, 2 %), none wrong. With the earlier
    /// map builder (one medoid descriptor per point) s3 placed 9/12; the per-view-descriptor
    /// builder places one frame fewer with this localizer, whose weak-seed counts are still
    /// absolute. That regression is open in issue 14; the bar rises as both improve.
    @Test(arguments: [("split-s3", 8), ("split-s6", 4)])
    func monstreeSplitPlacesFramesAndNoneWrongly(split name: String, atLeast: Int) throws {
        let r = try Self.run(try Self.split(name))
        let report = r.frames.map { "\($0.name) \($0.verdict.rawValue) \($0.reason ?? "")" }.joined(separator: "; ")
        #expect(r.count(.wrong) == 0, "\(name): \(report)")
        #expect(r.count(.success) >= atLeast, "\(name): \(r.count(.success))/\(r.frames.count): \(report)")
    }

    @Test func sceneScaleIsTheMedianDistanceToTheAxesMeetingPoint() throws {
        // Four cameras on a circle of radius 2 around (1, 0, 3), all looking at its centre.
        let centre = SIMD3<Double>(1, 0, 3)
        let cams = (0..<4).map { k -> Pose in
            let a = Double(k) * .pi / 2
            return Pose.lookAt(eye: centre + 2 * SIMD3(cos(a), 0, sin(a)), target: centre, up: SIMD3(0, 1, 0))
        }
        let p = try #require(SceneScale.pointNearestToAxes(of: cams))
        #expect(length(p - centre) < 1e-9)
        #expect(abs((SceneScale.of(cams) ?? 0) - 2) < 1e-9)
        #expect(SceneScale.of(Array(cams.prefix(1))) == nil)
    }

    @Test func verdictsFollowTheReadmeTolerances() {
        let truth = Pose.identity
        func at(_ t: Double, _ deg: Double) -> RegistrationVerdict {
            let r = Quaternion(axis: SIMD3(0, 1, 0), angle: deg * .pi / 180)
            return RegistrationVerdict(estimate: Pose(rotation: r, translation: SIMD3(t, 0, 0)), truth: truth, sceneScale: 10)
        }
        #expect(at(0.19, 1.9) == .success)
        #expect(at(0.21, 1) == .inaccurate)
        #expect(at(0.5, 9) == .inaccurate)
        #expect(at(1.01, 0) == .wrong)
        #expect(at(0, 11) == .wrong)
        #expect(RegistrationVerdict(estimate: nil, truth: truth, sceneScale: 1) == .rejected)
    }
}
