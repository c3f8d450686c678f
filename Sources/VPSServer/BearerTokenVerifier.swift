import Foundation

/// Checks a presented bearer token. `TokenStore` is the production implementation; the
/// server depends only on this so the check stays one small, testable seam.
public protocol BearerTokenVerifier: Sendable {
    /// The verdict on `token` (the text after `Bearer `) at time `now`.
    func verify(token: String, now: Date) -> TokenVerification
}

/// The verdict on a presented token.
public enum TokenVerification: Sendable, Hashable {
    case valid(TokenGrant)
    /// Not of the `arc_...` form at all.
    case malformed
    /// Well-formed but not issued by this store.
    case unknown
    case expired
    case revoked
    /// The verdict could not be reached (e.g. the token file is unreadable): HTTP 503,
    /// never 401, so clients do not discard a good token over a server fault.
    case unavailable(String)
}

/// What a valid token allows: who it was issued to and which maps it may use.
public struct TokenGrant: Sendable, Hashable {
    /// The token's name from `arcloud token create --name` (logged; the token never is).
    public var name: String
    /// The maps the token may use; nil means every map.
    public var maps: Set<String>?

    public init(name: String, maps: Set<String>?) { self.name = name; self.maps = maps }

    public func allows(mapId: String) -> Bool { maps?.contains(mapId) ?? true }
}
