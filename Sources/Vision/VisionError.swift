import VisionCore

/// A failure reported by the vision core, with the reason it gave.
///
/// Every `vc_status` of the C core maps to one `Code`; `message` carries the core's detail
/// (for example "JPEG has no end-of-image marker (truncated)").
public struct VisionError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: Sendable, Hashable {
        /// An argument is out of range (sizes, options, non-finite numbers).
        case invalidArgument
        /// Zero bytes or zero points were given.
        case emptyInput
        /// The bytes are neither JPEG nor PNG.
        case unsupportedFormat
        /// The image data ends before the image does.
        case truncated
        /// The image is malformed and does not decode.
        case decodeFailed
        /// The image header claims more pixels than allowed.
        case tooLarge
        /// A solver found no model (too few points or inliers, degenerate data).
        case noSolution
        /// Memory ran out.
        case outOfMemory
        /// An unexpected internal failure (a bug: please report it with the message).
        case internalError
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    /// Maps a failing status to an error, taking the detail from the core's thread-local
    /// message. Call right after the failing C call, on the same thread.
    package static func from(_ status: vc_status) -> VisionError {
        let message = String(cString: vc_last_error_message())
        let code: Code
        switch status {
        case VC_ERR_INVALID_ARGUMENT, VC_ERR_BUFFER_TOO_SMALL: code = .invalidArgument
        case VC_ERR_DECODE: code = .decodeFailed
        case VC_ERR_TOO_LARGE: code = .tooLarge
        case VC_ERR_NO_SOLUTION: code = .noSolution
        case VC_ERR_OUT_OF_MEMORY: code = .outOfMemory
        case VC_ERR_EMPTY_INPUT: code = .emptyInput
        case VC_ERR_TRUNCATED: code = .truncated
        case VC_ERR_UNSUPPORTED_FORMAT: code = .unsupportedFormat
        default: code = .internalError
        }
        return VisionError(code, message.isEmpty ? "status \(status.rawValue)" : message)
    }

    /// Throws the mapped error unless `status` is `VC_OK`.
    package static func check(_ status: vc_status) throws(VisionError) {
        if status != VC_OK { throw from(status) }
    }
}
