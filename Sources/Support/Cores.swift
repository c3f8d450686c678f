import Foundation

/// The cores this process may run on.
public enum Cores {
    /// Cores available to this process (at least 1): the default count of worker threads
    /// everywhere (batch localization, map building, the service's workers).
    public static var available: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
