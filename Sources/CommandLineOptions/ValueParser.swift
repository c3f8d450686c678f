/// How an option's text becomes a value, and what the help shows for it: the kinds every
/// command shares (whole numbers in a range, numbers with bounds, one of a few words,
/// comma-separated lists), so that the same mistake gets the same message everywhere.
public struct ValueParser<Value: Sendable>: Sendable {
    /// The value's name in the help, e.g. `<n>` in `--workers <n>`.
    public let placeholder: String
    /// The accepted words and what each means, when the value is one of a few (listed
    /// under the option in the help when they carry a description).
    public let choices: [Choice]
    /// How the value's text in the help is written when it is a default.
    let describe: @Sendable (Value) -> String
    let parse: @Sendable (String) throws -> Value

    /// A parser of your own. `parse` throws `InvalidValue` for text it refuses (the message
    /// then names the option); a `UsageError` is passed on as it is, and any other error
    /// becomes "option '--name': <error>".
    public init(placeholder: String, choices: [Choice] = [],
                describe: @escaping @Sendable (Value) -> String = { "\($0)" },
                parse: @escaping @Sendable (String) throws -> Value) {
        self.placeholder = placeholder
        self.choices = choices
        self.describe = describe
        self.parse = parse
    }

    /// A parser from a failable one (`MapUnits(parsing:)`): nil is refused with `needs`
    /// ("option '--units' takes metres or unknown, got 'feet'").
    public init(placeholder: String, refusing needs: String, parse: @escaping @Sendable (String) -> Value?) {
        self.init(placeholder: placeholder) { text in
            guard let value = parse(text) else { throw InvalidValue(needs) }
            return value
        }
    }

    /// This parser with another placeholder in the help.
    public func placeholder(_ text: String) -> ValueParser {
        ValueParser(placeholder: text, choices: choices, describe: describe, parse: parse)
    }
}

/// One accepted word of an option that takes one of a few, with what it means.
public struct Choice: Sendable, Equatable {
    public let word: String
    public let help: String
    public init(_ word: String, _ help: String = "") {
        self.word = word
        self.help = help
    }
}

extension ValueParser where Value == String {
    /// Any text: a path, a URL, a name.
    public static var text: ValueParser<String> { ValueParser(placeholder: "<text>") { $0 } }

    /// One of `words`.
    public static func oneOf(_ words: [String]) -> ValueParser<String> {
        oneOf(words.map { Choice($0) })
    }

    /// One of `choices`; their descriptions, when given, are listed under the option.
    public static func oneOf(_ choices: [Choice]) -> ValueParser<String> {
        let words = choices.map(\.word)
        return ValueParser(placeholder: words.joined(separator: "|"), choices: choices) { text in
            guard words.contains(text) else { throw InvalidValue("must be one of \(words.joined(separator: "|"))") }
            return text
        }
    }
}

extension ValueParser where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the cases of `type`, by raw value, in the order the type lists them.
    public static func oneOf(_ type: Value.Type) -> ValueParser<Value> {
        oneOf(type) { _ in "" }
    }

    /// One of the cases of `type`, each listed under the option with what `meaning` says of
    /// it (an exhaustive `switch` there keeps the help in step with the type's cases).
    public static func oneOf(_ type: Value.Type, meaning: (Value) -> String) -> ValueParser<Value> {
        let words = Value.allCases.map(\.rawValue)
        return ValueParser(placeholder: words.joined(separator: "|"),
                           choices: Value.allCases.map { Choice($0.rawValue, meaning($0)) },
                           describe: { $0.rawValue }) { text in
            guard let value = Value(rawValue: text) else {
                throw InvalidValue("must be one of \(words.joined(separator: "|"))")
            }
            return value
        }
    }
}

extension ValueParser where Value: FixedWidthInteger {
    /// A whole number in `range` (by default any the type holds).
    public static func integer(in range: ClosedRange<Value> = Value.min...Value.max) -> ValueParser<Value> {
        let needs = "needs " + wholeNumber(in: range)
        return ValueParser(placeholder: "<n>") { text in
            guard let value = Value(text), range.contains(value) else { throw InvalidValue(needs) }
            return value
        }
    }

    /// "a whole number in 1...256", "a whole number of at least 0", "a whole number".
    static func wholeNumber(in range: ClosedRange<Value>) -> String {
        switch (range.lowerBound == Value.min && Value.isSigned, range.upperBound == Value.max) {
        case (true, true): "a whole number"
        case (false, true): "a whole number of at least \(range.lowerBound)"
        case (true, false): "a whole number of at most \(range.upperBound)"
        case (false, false): "a whole number in \(range.lowerBound)...\(range.upperBound)"
        }
    }
}

extension ValueParser where Value == Double {
    /// A finite number within the bounds given: `atLeast`/`atMost` include the bound,
    /// `greaterThan`/`lessThan` exclude it.
    public static func number(atLeast: Double? = nil, greaterThan: Double? = nil,
                              atMost: Double? = nil, lessThan: Double? = nil) -> ValueParser<Double> {
        let bounds = NumberBounds(atLeast: atLeast, greaterThan: greaterThan, atMost: atMost, lessThan: lessThan)
        let needs = "needs " + bounds.phrase
        return ValueParser(placeholder: "<x>", describe: formatNumber) { text in
            guard let value = Double(text), value.isFinite, bounds.contains(value) else { throw InvalidValue(needs) }
            return value
        }
    }

    /// A finite number in `range`.
    public static func number(in range: ClosedRange<Double>) -> ValueParser<Double> {
        number(atLeast: range.lowerBound, atMost: range.upperBound)
    }
}

extension ValueParser {
    /// Comma-separated items, each parsed by `item` (spaces around an item and empty items
    /// are ignored); at least one.
    public static func list<Item>(of item: ValueParser<Item>) -> ValueParser<[Item]> where Value == [Item] {
        ValueParser(placeholder: "<list>", describe: { $0.map(item.describe).joined(separator: ",") }) { text in
            let items = text.split(separator: ",").map { $0.trimmingCharacters() }.filter { !$0.isEmpty }
            guard !items.isEmpty else { throw InvalidValue("needs a comma-separated list") }
            return try items.map { part in
                do { return try item.parse(part) } catch let refused as InvalidValue {
                    throw InvalidValue("needs a comma-separated list of which each item " + refused.predicate,
                                       got: refused.got ?? part)
                }
            }
        }
    }
}

/// The bounds of `ValueParser.number`, and how a message says them.
struct NumberBounds: Sendable {
    var atLeast, greaterThan, atMost, lessThan: Double?

    func contains(_ x: Double) -> Bool {
        if let b = atLeast, x < b { return false }
        if let b = greaterThan, x <= b { return false }
        if let b = atMost, x > b { return false }
        if let b = lessThan, x >= b { return false }
        return true
    }

    /// "a number in 0.01...3600", "a number greater than 0 and at most 1000000000000".
    var phrase: String {
        if let lo = atLeast, let hi = atMost, greaterThan == nil, lessThan == nil {
            return "a number in \(formatNumber(lo))...\(formatNumber(hi))"
        }
        let parts = [atLeast.map { "of at least \(formatNumber($0))" }, greaterThan.map { "greater than \(formatNumber($0))" },
                     atMost.map { "at most \(formatNumber($0))" }, lessThan.map { "less than \(formatNumber($0))" }]
        let said = parts.compactMap { $0 }
        return said.isEmpty ? "a number" : "a number " + said.joined(separator: " and ")
    }
}

/// A number as people write it: `4`, not `4.0`; `0.999`; `1000000000000`.
func formatNumber(_ x: Double) -> String {
    if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
    return "\(x)"
}

extension Substring {
    /// The text without spaces and tabs at either end (no Foundation in this module).
    func trimmingCharacters() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: blank).reversed().drop(while: blank).reversed())
    }
}
