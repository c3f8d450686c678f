/// One thing wrong with a recorded session or scene file, named precisely enough to fix it.
///
/// `location` says where: a field of `session.json` such as `session.json: frames[3].pose.q`,
/// or a file path relative to the session folder such as `frames/000003.jpg`.
public struct DatasetProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `session.json` (or `scene.json`) is missing or cannot be read.
        case unreadableFile
        /// Not valid JSON, or a field is missing or of the wrong type.
        case malformedJSON
        /// `version` is not one this build reads.
        case unsupportedVersion
        /// A pose quaternion is not of unit length.
        case nonUnitQuaternion
        /// Intrinsics that cannot describe a camera (see `CameraIntrinsics.problem`).
        case invalidCamera
        /// A session without frames.
        case noFrames
        /// Two frames share an id.
        case duplicateFrameId
        /// A frame's timestamp is not after the previous frame's.
        case nonMonotonicTimestamp
        /// A frame timestamp or script time that is not finite or too large for the
        /// replay clock (`SessionTime`).
        case invalidTime
        /// A script with more actions than `ScriptLimits.maxActions`.
        case scriptTooLong
        /// A frame's image path is absolute or leaves the session folder.
        case imagePathOutsideSession
        /// A frame's image file does not exist.
        case missingFrameImage
        /// A frame's image file is not a JPEG or PNG that decodes in full (a bad checksum, a
        /// cut file, a header with no image data).
        case unreadableFrameImage
        /// A frame's image size differs from the camera's `width`×`height`.
        case imageSizeMismatch
        /// Odometry whose frame is not gravity-aligned (+y up): its gravity disagrees with
        /// the ground truth's, so the localizer would be handed a wrong gravity.
        case odometryNotGravityAligned
    }

    public var kind: Kind
    /// Where the problem is: a JSON field path or a file relative to the session folder.
    public var location: String
    public var message: String

    public init(_ kind: Kind, at location: String, _ message: String) {
        self.kind = kind; self.location = location; self.message = message
    }

    public var description: String { "\(location): \(message)" }
}

extension DatasetProblem {
    /// The problem a JSON decoding error describes, located at its JSON path in `fileName`
    /// (e.g. `scene.json: objects[2].pose.q`): one line, not the decoder's dump.
    public init(_ error: DecodingError, fileName: String) {
        self = DatasetJSON.problem(from: error, fileName: fileName)
    }
}
