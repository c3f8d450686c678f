import VPSModel

/// A JSON value whose object keys keep the order they were given in, so every line of
/// `arcloud simulate` lists its fields in one documented, stable order.
public enum JSONLineValue: Sendable {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case null
    case array([JSONLineValue])
    /// Fields in the order given.
    case object([(String, JSONLineValue)])

    /// Compact JSON text.
    public var text: String {
        switch self {
        case .string(let s): return JSONLiteral.string(s)
        case .number(let d): return d.isFinite ? Self.format(d) : "null"
        case .integer(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let fields): return "{" + fields.map { JSONLiteral.string($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    /// Integral values without a fraction, others in Swift's shortest round-trip form.
    private static func format(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }
}
