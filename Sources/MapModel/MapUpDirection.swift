import Foundation

/// Which way is up in a map's frame: a unit vector (against gravity), or unknown.
///
/// arcloud sessions are gravity-aligned with +y up. A COLMAP model's frame is arbitrary
/// (its y axis usually points down the first image), so a map built from one has an
/// unknown up unless the user gives it (`map build --up 0,-1,0` or `--up -y`). The
/// localizer may use a frame's measured gravity only when the map's up is known.
public enum MapUpDirection: Sendable, Hashable, CustomStringConvertible {
    /// The unit vector pointing up (against gravity), in map coordinates.
    case known(SIMD3<Double>)
    case unknown

    /// +y up: arcloud's own sessions.
    public static let plusY = MapUpDirection.known(SIMD3(0, 1, 0))

    /// The unit up vector, or nil when unknown.
    public var vector: SIMD3<Double>? {
        if case .known(let v) = self { return v }
        return nil
    }

    /// Why a text is not an up direction.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public let text: String
        public var description: String {
            "'\(text)' is not an up direction: give a named axis (+x, -x, +y, -y, +z, -z), "
                + "a vector x,y,z (not zero) or unknown"
        }
    }

    /// Parses a named axis (`+y`, `-z`, `y`…), a vector `x,y,z` (normalised; must not be
    /// zero or non-finite) or `unknown`.
    public init(parsing text: String) throws {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t == "unknown" { self = .unknown; return }
        let axes: [String: SIMD3<Double>] = ["x": SIMD3(1, 0, 0), "y": SIMD3(0, 1, 0), "z": SIMD3(0, 0, 1)]
        var sign = 1.0, name = Substring(t)
        if let first = name.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            name = name.dropFirst()
        }
        if let axis = axes[String(name)] { self = .known(axis * sign); return }
        let parts = t.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3, let x = parts[0], let y = parts[1], let z = parts[2] else { throw ParseError(text: text) }
        let v = SIMD3(x, y, z)
        let n = (v * v).sum().squareRoot()
        guard n.isFinite, n > 1e-12 else { throw ParseError(text: text) }
        // A stored unit vector reads back bit for bit: dividing by a norm one ulp off 1 would not.
        self = .known(abs(n - 1) < 1e-12 ? v : v / n)
    }

    /// `+y`, `-z`… for an axis, `x,y,z` (full precision) otherwise, or `unknown`: the
    /// form stored in a map and printed by `map inspect`; `init(parsing:)` reads it back.
    public var description: String {
        guard let v = vector else { return "unknown" }
        let names = ["x", "y", "z"]
        for i in 0..<3 where abs(abs(v[i]) - 1) < 1e-12 {
            return (v[i] > 0 ? "+" : "-") + names[i]
        }
        return "\(v.x),\(v.y),\(v.z)"
    }
}

extension MapUpDirection: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(parsing: text)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
