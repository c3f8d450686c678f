import Localization
import Testing
import Foundation
import Geometry
import Evaluation
import MapModel
import Support
import TestSupport
import VPSModel
import Vision
import Storage
import Synchronization
import Geodesy

/// The localizer on the shipped map and query sessions (the README's accuracy figures).
@Suite(.serialized) struct ShippedLocalizationTests {
    static var map: VPSMap? { PackageDirectory.galleryMap }

    func run(_ session: String, mode: LocalizationMode, useGravity: Bool = true) throws -> (RecordedSession, [FrameOutcome]) {
        let map = try #require(Self.map, "Maps/gallery.vpsmap must load")
        let dir = PackageDirectory.root.appendingPathComponent("Datasets/\(session)")
        let s = try RecordedSession.load(from: dir)
        let batch = BatchLocalizer(localizer: try Localizer(map: map), mode: mode, useGravity: useGravity)
        return (s, try batch.run(s, in: dir).outcomes)
    }

    func fractionWithin5cm2deg(_ outcomes: [FrameOutcome]) -> Double {
        AccuracySummary(outcomes: outcomes, wallSeconds: 1).recall[0].fraction
    }

    @Test func walkQueryLocalizesSingleShotWithin5cm2deg() throws {
        let (_, outcomes) = try run("gallery-query-walk", mode: .singleShot)
        #expect(outcomes.count == 70)
        let recall = fractionWithin5cm2deg(outcomes)
        // 70 of 70 measured; one frame of slack.
        #expect(recall >= 0.98, "single-shot recall at (5 cm, 2°): \(recall)")
    }

    /// Blur and dimmed light, with each frame's gravity as a phone sends it: 69 of 70
    /// measured (68 without the motion-blur removal); 97.1–100 % on eight more blurred
    /// sessions of this scene. The gate is the measured rate (frame 66, in the dimmest
    /// light, is placed or rejected by a hair's difference in the deconvolution). Guards what the motion-blur removal, gravity, weak seeds, coverage and the
    /// multi-probe fallback reach.
    @Test func hardQueryLocalizesSingleShotWithin5cm2deg() throws {
        let (_, outcomes) = try run("gallery-query-hard", mode: .singleShot)
        let recall = fractionWithin5cm2deg(outcomes)
        #expect(recall >= 0.98, "single-shot recall at (5 cm, 2°): \(recall)")
    }

    /// A frame smeared by a fast turn is found smeared, along the turn, and deconvolved:
    /// frame 65 of the blurred session, whose features as captured give a pose several
    /// centimetres off along the smear, is placed within (5 cm, 2°). A sharp walk frame is
    /// used as it is.
    @Test func aSmearedFrameIsDeconvolvedAndPlaced() throws {
        let map = try #require(Self.map, "Maps/gallery.vpsmap must load")
        let hard = PackageDirectory.root.appendingPathComponent("Datasets/gallery-query-hard")
        let walk = PackageDirectory.root.appendingPathComponent("Datasets/gallery-query-walk")
        let session = try RecordedSession.load(from: hard)
        let frame = session.frames[65]
        let bytes = try [UInt8](Data(contentsOf: RecordedSession.imageURL(of: frame, in: hard)))
        let options = LocalizerOptions().motionDeblur
        let blur = try MotionBlur(estimating: GrayImage(decoding: bytes), minAnisotropy: options.minAnisotropy)
        #expect(blur.length >= options.minLength, "\(blur)")
        #expect(min(blur.angleDegrees, 180 - blur.angleDegrees) < 10, "a horizontal turn: \(blur)")
        let truth = try #require(frame.pose)
        let result = try Localizer(map: map).localize(encoded: bytes, intrinsics: session.camera, gravity: frame.gravity)
        let pose = try #require(result.pose, "\(result.reason ?? "")")
        #expect(length(pose.center - truth.center) < 0.05)
        var captured = LocalizerOptions()
        captured.motionDeblur.enabled = false
        let asCaptured = try Localizer(map: map, options: captured)
            .localize(encoded: bytes, intrinsics: session.camera, gravity: frame.gravity)
        #expect(asCaptured.pose.map { length($0.center - truth.center) > 0.05 } ?? true,
                "as captured, the frame is placed off or not at all")

        let sharp = try RecordedSession.load(from: walk).frames[0]
        let image = try GrayImage(decoding: [UInt8](Data(contentsOf: RecordedSession.imageURL(of: sharp, in: walk))))
        let none = try MotionBlur(estimating: image, minAnisotropy: options.minAnisotropy)
        #expect(none.anisotropy < options.minAnisotropy && none.length == 0, "\(none)")
    }

    /// From the images alone (P3P hypotheses) the blurred frames are harder: 66 of 70
    /// measured (62 without the motion-blur removal; 94.3–97.1 % over nine blurred
    /// sessions). This guards the image-only path, which a client without an IMU takes.
    @Test func hardQueryFromImagesAloneStillPlacesMostFrames() throws {
        let (_, outcomes) = try run("gallery-query-hard", mode: .singleShot, useGravity: false)
        let recall = fractionWithin5cm2deg(outcomes)
        #expect(recall >= 0.9, "image-only single-shot recall at (5 cm, 2°): \(recall)")
        let wrong = outcomes.filter { ($0.error?.translation ?? 0) > 0.25 }
        #expect(wrong.isEmpty, "\(wrong.map(\.frameId)) accepted more than 25 cm off")
    }

    /// A frame whose gravity contradicts its image (a miscalibrated IMU, a client that mixes
    /// up axes) is rejected, not forced onto a pose that fits one patch of the image.
    @Test(arguments: [10.0, 90.0, 180.0])
    func gravityThatContradictsTheImageIsRejected(degreesOff: Double) throws {
        let map = try #require(Self.map)
        let dir = PackageDirectory.root.appendingPathComponent("Datasets/gallery-query-walk")
        let s = try RecordedSession.load(from: dir)
        let localizer = try Localizer(map: map)
        let tilt = Quaternion(axis: normalize(SIMD3(1, 0, 0.5)), angle: degreesOff * .pi / 180).matrix
        var placedWithTrueGravity = 0, frames = 0
        for frame in s.frames.enumerated().filter({ $0.offset % 3 == 0 }).map(\.element) {
            let bytes = try [UInt8](Data(contentsOf: RecordedSession.imageURL(of: frame, in: dir)))
            let g = try #require(frame.gravity)
            frames += 1
            if try localizer.localize(encoded: bytes, intrinsics: s.camera, gravity: g).isLocalized {
                placedWithTrueGravity += 1
            }
            let r = try localizer.localize(encoded: bytes, intrinsics: s.camera, gravity: tilt * g)
            #expect(!r.isLocalized, "\(frame.id) placed with gravity \(degreesOff)° off")
        }
        #expect(placedWithTrueGravity >= frames - 1)
    }

    @Test func hardQueryLocalizesInTrackingModeWithin5cm2deg() throws {
        let (_, outcomes) = try run("gallery-query-hard", mode: .tracking)
        let recall = fractionWithin5cm2deg(outcomes)
        // 68 of 70 measured (frames 20 and 66 grown 7–8 cm off along the yaw–sideways
        // ambiguity of a camera facing one wall); 69 without the motion-blur removal.
        #expect(recall >= 0.97, "tracking recall at (5 cm, 2°): \(recall)")
    }

    /// Every accepted frame is right: a pose that is accepted but far off would be worse
    /// for an AR app than no pose.
    @Test func acceptedPosesAreNeverFarOff() throws {
        for session in ["gallery-query-walk", "gallery-query-hard"] {
            let (_, outcomes) = try run(session, mode: .singleShot)
            let wrong = outcomes.filter { ($0.error?.translation ?? 0) > 0.25 }
            #expect(wrong.isEmpty, "\(session): \(wrong.map(\.frameId)) accepted more than 25 cm off")
        }
    }

    @Test func framesOfAnotherSceneAreRejected() throws {
        for mode in LocalizationMode.allCases {
            let (_, outcomes) = try run("other-scene-query", mode: mode)
            #expect(outcomes.count == 20)
            let accepted = outcomes.filter { $0.result.isLocalized }
            #expect(accepted.isEmpty, "\(mode): \(accepted.map(\.frameId)) localized in the wrong map")
            #expect(outcomes.allSatisfy { $0.result.reason != nil })
        }
    }

    /// Tracking hands each frame its prior's accuracy (the last fix's claim plus the drift
    /// allowed since), and the answers grown from such priors hold their claims.
    @Test func trackingPassesEachPriorsAccuracyAndHoldsItsClaims() throws {
        let map = try #require(Self.map, "Maps/gallery.vpsmap must load")
        let dir = PackageDirectory.root.appendingPathComponent("Datasets/gallery-query-hard")
        let s = try RecordedSession.load(from: dir)
        let recorder = PriorRecordingLocalizer(try Localizer(map: map))
        let outcomes = try BatchLocalizer(mode: .tracking, workers: 1) { _ in recorder }.run(s, in: dir).outcomes
        let seen = recorder.seen.withLock { $0 }
        #expect(seen.count == outcomes.count)
        // Every frame after a fix gets a prior and its accuracy: at least the fix's own claim.
        for i in 1..<outcomes.count where outcomes[i - 1].result.isLocalized {
            let fix = try #require(outcomes[i - 1].result.accuracy)
            let passed = try #require(seen[i].accuracy, "frame \(outcomes[i].frameId): a prior without its accuracy")
            #expect(seen[i].prior != nil)
            #expect(passed.position >= fix.position && passed.rotationDegrees >= fix.rotationDegrees)
        }
        let c = try #require(AccuracySummary.Calibration(outcomes))
        // 70 of 70 measured; a well-calibrated 95 % bound holds on 90 % at the least.
        #expect(Double(c.withinClaim) >= 0.9 * Double(c.accepted), "\(c.withinClaim) of \(c.accepted) within claim")
    }

    @Test func trackingAgreesWithSingleShot() throws {
        let (_, single) = try run("gallery-query-walk", mode: .singleShot)
        let (_, tracking) = try run("gallery-query-walk", mode: .tracking)
        var differences: [Double] = []
        for (a, b) in zip(single, tracking) {
            #expect(a.frameId == b.frameId)
            if let p = a.result.pose, let q = b.result.pose { differences.append(p.error(to: q).translation) }
        }
        #expect(differences.count >= 60)
        #expect(Statistics.median(differences)! < 0.01, "median single-shot/tracking difference \(Statistics.median(differences)!) m")
        #expect(tracking.contains { $0.result.usedPrior }, "tracking mode never used its prior")
    }

    @Test func localizedFramesReportASectionOfTheMap() throws {
        let (_, outcomes) = try run("gallery-query-walk", mode: .singleShot)
        let sections = Set(Self.map!.scene.sections.map(\.id))
        for o in outcomes where o.result.isLocalized {
            #expect(o.result.sectionId.map(sections.contains) == true, "\(o.frameId): section \(o.result.sectionId ?? "nil")")
        }
    }
}

/// The real localizer, with each frame's prior and prior accuracy recorded as the batch
/// passes them.
private final class PriorRecordingLocalizer: FrameLocalizer {
    let localizer: Localizer
    let seen = Mutex<[(prior: Pose?, accuracy: PoseAccuracy?)]>([])

    init(_ localizer: Localizer) { self.localizer = localizer }

    func localize(encoded bytes: [UInt8], intrinsics: CameraIntrinsics, prior: Pose?, gravity: SIMD3<Double>?,
                  location: GPSReading?) throws -> LocalizationResult {
        try localize(encoded: bytes, intrinsics: intrinsics, prior: prior, priorAccuracy: nil, gravity: gravity,
                     location: location)
    }

    func localize(encoded bytes: [UInt8], intrinsics: CameraIntrinsics, prior: Pose?, priorAccuracy: PoseAccuracy?,
                  gravity: SIMD3<Double>?, location: GPSReading?) throws -> LocalizationResult {
        seen.withLock { $0.append((prior, priorAccuracy)) }
        return try localizer.localize(encoded: bytes, intrinsics: intrinsics, prior: prior, priorAccuracy: priorAccuracy,
                                      gravity: gravity, location: location)
    }
}
