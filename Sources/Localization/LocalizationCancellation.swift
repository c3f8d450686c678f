/// When a localization in progress should give up: a deadline, a condition, or both.
///
/// The localizer checks it between its stages (decoding, feature extraction, each
/// matching-and-solving attempt), so a localization stops within one stage of being
/// cancelled and frees its core; the work inside a stage is not interrupted. A stopped
/// localization throws `LocalizationError.cancelled`.
///
/// ```swift
/// let budget = LocalizationCancellation(deadline: .now + .seconds(2))
/// let result = try localizer.localize(encoded: jpeg, intrinsics: camera, cancellation: budget)
/// ```
public struct LocalizationCancellation: Sendable {
    /// Never cancels.
    public static let none = LocalizationCancellation()

    /// Past this instant the localization stops; nil for no deadline.
    public let deadline: ContinuousClock.Instant?
    private let condition: (@Sendable () -> Bool)?

    /// - Parameters:
    ///   - deadline: stop once this instant has passed.
    ///   - when: stop once this returns true (called between stages, so keep it cheap).
    public init(deadline: ContinuousClock.Instant? = nil, when condition: (@Sendable () -> Bool)? = nil) {
        self.deadline = deadline
        self.condition = condition
    }

    /// True once the deadline has passed or the condition holds.
    public var isCancelled: Bool {
        if let deadline, ContinuousClock.now >= deadline { return true }
        return condition?() ?? false
    }

    /// Throws `LocalizationError.cancelled` when `isCancelled`.
    public func check() throws(LocalizationError) {
        if isCancelled { throw .cancelled }
    }
}
