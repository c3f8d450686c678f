/// A value SQLite stores: the five storage classes.
///
/// Literals work where a value is expected: `[1, 2.5, "text", .null]`. (There is
/// deliberately no `nil` literal: it would make `Optional<SQLiteValue>` comparisons with
/// `nil` ambiguous.)
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The value as an integer, when it is one (or a real with an integral value).
    public var integer: Int64? {
        switch self {
        case .integer(let v): v
        case .real(let d) where d == d.rounded() && abs(d) < 9.2e18: Int64(d)
        default: nil
        }
    }

    /// The value as a double, when it is numeric.
    public var real: Double? {
        switch self {
        case .integer(let v): Double(v)
        case .real(let d): d
        default: nil
        }
    }

    public var text: String? { if case .text(let s) = self { s } else { nil } }
    public var blob: [UInt8]? { if case .blob(let b) = self { b } else { nil } }
    public var isNull: Bool { self == .null }
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLiteValue {
    /// An integer value from any fixed-width integer.
    public init<I: BinaryInteger>(_ v: I) { self = .integer(Int64(v)) }
    public init(_ v: Double) { self = .real(v) }
    public init(_ v: String) { self = .text(v) }
    public init(_ v: [UInt8]) { self = .blob(v) }
    /// `.null` for nil, otherwise the wrapped value.
    public init(_ v: String?) { self = v.map { .text($0) } ?? .null }
    public init(_ v: Double?) { self = v.map { .real($0) } ?? .null }
}

/// What SQLite holds in a column of a row, before any conversion a typed read would make
/// (`SQLiteStatement.double` reads TEXT `'abc'` as 0).
public enum SQLiteStorageClass: String, Sendable, Hashable {
    case integer, real, text, blob, null

    /// "an integer", "text"…: for messages.
    public var phrase: String {
        switch self {
        case .integer: "an integer"
        case .real: "a real number"
        case .text: "text"
        case .blob: "a blob"
        case .null: "NULL"
        }
    }
}
