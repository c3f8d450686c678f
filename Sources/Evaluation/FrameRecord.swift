import Geodesy
import Geometry
import VPSModel

/// One frame's outcome as a fixed-size binary record: what the summary and the report read
/// of it (status, poses, accuracy, timings, counts, GeoPose, timestamp), its strings as
/// places in a text file beside, and where its line of `results.jsonl` waits when it came
/// too early. `BatchRecorder` writes one per frame to a scratch file at `index × size`, so
/// a run holds no memory per frame; `RecordedOutcomes` reads them back.
///
/// Numbers are stored as their bits (little-endian 64-bit slots): an outcome read back is
/// equal to the one written in every field kept, and the files written from it are the same.
struct FrameRecord {
    /// Where a string is in the text file; `length` −1 for none.
    struct TextRef: Equatable {
        var offset: UInt64 = 0
        var length: Int64 = -1
        static let none = TextRef()
    }

    var flags: UInt64 = 0
    var inliers = 0, matches = 0
    var timestamp = 0.0
    var pose = Pose.identity, groundTruth = Pose.identity
    var accuracy = PoseAccuracy(position: 0, rotationDegrees: 0)
    var reprojectionError = 0.0
    var timings = StageTimings()
    var geoPose = GeoPose(position: GeodeticPosition(latitude: 0, longitude: 0), quaternion: .identity)
    var geoAccuracy = PoseAccuracy(position: 0, rotationDegrees: 0)
    var id = TextRef.none, image = TextRef.none, section = TextRef.none, reason = TextRef.none
    /// Where the frame's `results.jsonl` line waits in the recorder's spill file (−1 length: not there).
    var line = TextRef.none

    static let present: UInt64 = 1, localized: UInt64 = 2, hasPose: UInt64 = 4, hasAccuracy: UInt64 = 8,
               usedPrior: UInt64 = 16, hasGroundTruth: UInt64 = 32, hasGeoPose: UInt64 = 64, hasGeoAccuracy: UInt64 = 128

    func has(_ flag: UInt64) -> Bool { flags & flag != 0 }

    /// Slots of 8 bytes: flags, 2 counts, timestamp, 2 × 7 pose, 2 accuracy, reprojection,
    /// 9 timings, 7 GeoPose, 2 GeoPose accuracy, 5 × 2 text refs.
    static let slots = 1 + 2 + 1 + 14 + 2 + 1 + 9 + 7 + 2 + 10
    static let size = slots * 8

    /// The record of `outcome`, its strings placed by `place` (nil strings are not asked for).
    init(_ outcome: FrameOutcome, place: (String, TextKind) throws -> TextRef) rethrows {
        let r = outcome.result
        flags = FrameRecord.present | (r.isLocalized ? FrameRecord.localized : 0) | (r.usedPrior ? FrameRecord.usedPrior : 0)
        if let p = r.pose { pose = p; flags |= FrameRecord.hasPose }
        if let g = outcome.groundTruth { groundTruth = g; flags |= FrameRecord.hasGroundTruth }
        if let a = r.accuracy { accuracy = a; flags |= FrameRecord.hasAccuracy }
        if let g = r.geoPose { geoPose = g; flags |= FrameRecord.hasGeoPose }
        if let a = r.geoAccuracy { geoAccuracy = a; flags |= FrameRecord.hasGeoAccuracy }
        inliers = r.inliers; matches = r.matches
        timestamp = outcome.timestamp
        reprojectionError = r.reprojectionError
        timings = r.timings
        id = try place(outcome.frameId, .frameId)
        if let s = outcome.image { image = try place(s, .image) }
        if let s = r.sectionId { section = try place(s, .section) }
        if let s = r.reason { reason = try place(s, .reason) }
    }

    /// What a string is, for the text file's choice of sharing it: sections and reasons
    /// repeat, frame ids and images mostly do not.
    enum TextKind { case frameId, image, section, reason }

    init() {}

    /// The outcome this record keeps, its strings read by `text`: equal to the one recorded
    /// but for what neither summary nor report reads (evidence, location prior use, matches).
    func outcome(text: (TextRef) throws -> String) rethrows -> FrameOutcome {
        func optional(_ ref: TextRef) throws -> String? { ref.length < 0 ? nil : try text(ref) }
        var result = LocalizationResult(
            status: has(FrameRecord.localized) ? .localized : .rejected, pose: has(FrameRecord.hasPose) ? pose : nil,
            sectionId: try optional(section), inliers: inliers, matches: matches, reprojectionError: reprojectionError,
            reason: try optional(reason), usedPrior: has(FrameRecord.usedPrior), timings: timings)
        if has(FrameRecord.hasAccuracy) { result.accuracy = accuracy }
        if has(FrameRecord.hasGeoPose) { result.geoPose = geoPose }
        if has(FrameRecord.hasGeoAccuracy) { result.geoAccuracy = geoAccuracy }
        return FrameOutcome(frameId: try text(id), image: try optional(image), timestamp: timestamp, result: result,
                            groundTruth: has(FrameRecord.hasGroundTruth) ? groundTruth : nil)
    }

    /// The record as `size` bytes.
    func write(into bytes: UnsafeMutableRawBufferPointer) {
        var slot = 0
        func put(_ v: UInt64) { bytes.storeBytes(of: v.littleEndian, toByteOffset: slot * 8, as: UInt64.self); slot += 1 }
        func put(_ v: Double) { put(v.bitPattern) }
        func put(_ v: Int) { put(UInt64(bitPattern: Int64(v))) }
        func put(_ p: Pose) {
            for v in [p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w, p.translation.x, p.translation.y, p.translation.z] { put(v) }
        }
        func put(_ t: TextRef) { put(t.offset); put(UInt64(bitPattern: t.length)) }
        put(flags); put(inliers); put(matches); put(timestamp); put(pose); put(groundTruth)
        put(accuracy.position); put(accuracy.rotationDegrees); put(reprojectionError)
        for v in [timings.decode, timings.deblur, timings.extract, timings.retrieve, timings.match, timings.solve,
                  timings.refine, timings.verify, timings.total] { put(v) }
        let g = geoPose
        for v in [g.position.latitude, g.position.longitude, g.position.height,
                  g.quaternion.x, g.quaternion.y, g.quaternion.z, g.quaternion.w] { put(v) }
        put(geoAccuracy.position); put(geoAccuracy.rotationDegrees)
        for t in [id, image, section, reason, line] { put(t) }
        assert(slot == Self.slots)
    }

    /// The record in `bytes` (`size` of them, as `write(into:)` left them).
    init(from bytes: UnsafeRawBufferPointer) {
        var slot = 0
        func bits() -> UInt64 { defer { slot += 1 }; return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: slot * 8, as: UInt64.self)) }
        func double() -> Double { Double(bitPattern: bits()) }
        func int() -> Int { Int(Int64(bitPattern: bits())) }
        func readPose() -> Pose {
            let q = Quaternion(x: double(), y: double(), z: double(), w: double())
            return Pose(rotation: q, translation: SIMD3(double(), double(), double()))
        }
        func ref() -> TextRef { TextRef(offset: bits(), length: Int64(bitPattern: bits())) }
        flags = bits(); inliers = int(); matches = int(); timestamp = double()
        pose = readPose(); groundTruth = readPose()
        accuracy = PoseAccuracy(position: double(), rotationDegrees: double())
        reprojectionError = double()
        timings.decode = double(); timings.deblur = double(); timings.extract = double(); timings.retrieve = double()
        timings.match = double(); timings.solve = double(); timings.refine = double(); timings.verify = double()
        timings.total = double()
        let position = GeodeticPosition(latitude: double(), longitude: double(), height: double())
        geoPose = GeoPose(position: position, quaternion: Quaternion(x: double(), y: double(), z: double(), w: double()))
        geoAccuracy = PoseAccuracy(position: double(), rotationDegrees: double())
        id = ref(); image = ref(); section = ref(); reason = ref(); line = ref()
    }
}
