import Foundation

/// Content versions of map files: the SHA-256 of the file in hexadecimal, hashed once per
/// file state (see `FileDerivedCache`), so listing maps does not read every map on every
/// request, while a replaced file gets its new version.
public final class MapContentVersions: Sendable {
    private let hashes = FileDerivedCache<String> { path in SHA256.hex(try SHA256.hash(fileAt: path)) }

    public init() {}

    /// The version of the file at `path` as it is now.
    public func version(ofFileAt path: String) throws -> String {
        try hashes.value(ofFileAt: path)
    }

    /// The version with the file state it belongs to (see `FileDerivedCache.valueAndState`).
    func versionAndState(ofFileAt path: String) throws -> (version: String, state: FileState) {
        let (version, state) = try hashes.valueAndState(ofFileAt: path)
        return (version, state)
    }
}
