/// A parsed command line: `--flag value`, `--flag=value`, boolean `--switch`, positionals.
/// Small on purpose: no outside packages can be fetched, so no swift-argument-parser.
struct Arguments {
    private(set) var positionals: [String] = []
    private var options: [String: String] = [:]
    private var switches: Set<String> = []

    /// Parses `raw` against the options (which take a value) and switches a command declares.
    /// Throws `UsageError` for unknown flags or a missing value.
    init(_ raw: [String], options valued: Set<String>, switches known: Set<String>) throws {
        var i = 0
        var onlyPositionals = false
        while i < raw.count {
            let a = raw[i]
            i += 1
            if onlyPositionals || !a.hasPrefix("--") || a == "-" {
                if !onlyPositionals, a.hasPrefix("-"), a != "-", a.count > 1, Double(a) == nil {
                    throw UsageError("unknown option '\(a)'")
                }
                positionals.append(a)
                continue
            }
            if a == "--" { onlyPositionals = true; continue }
            var name = String(a.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if known.contains(name) {
                if inline != nil { throw UsageError("option '--\(name)' takes no value") }
                switches.insert(name)
            } else if valued.contains(name) {
                if let v = inline { options[name] = v; continue }
                guard i < raw.count else { throw UsageError("option '--\(name)' needs a value") }
                // A value is never another flag: `--map --out DIR` is a missing map, not a
                // map called `--out` (write `--map=--odd-name` for such a name).
                guard !raw[i].hasPrefix("--") else {
                    throw UsageError("option '--\(name)' needs a value, got the option '\(raw[i])'")
                }
                options[name] = raw[i]
                i += 1
            } else {
                throw UsageError("unknown option '--\(name)'")
            }
        }
    }

    func has(_ name: String) -> Bool { switches.contains(name) }
    func value(_ name: String) -> String? { options[name] }

    func require(_ name: String) throws -> String {
        guard let v = options[name] else { throw UsageError("missing required option '--\(name)'") }
        return v
    }

    func int(_ name: String, default d: Int, range: ClosedRange<Int> = Int.min...Int.max) throws -> Int {
        guard let s = options[name] else { return d }
        guard let v = Int(s), range.contains(v) else {
            throw UsageError("option '--\(name)' needs a whole number in \(range.lowerBound)...\(range.upperBound), got '\(s)'")
        }
        return v
    }

    /// A count (threads, workers, frames…): a whole number from 1 to `max`; every command
    /// parses counts here, so `0` is refused the same way everywhere.
    func positiveInt(_ name: String, default d: Int, max: Int = Int.max) throws -> Int {
        try int(name, default: d, range: 1...max)
    }

    /// A number greater than zero and at most `max` (intervals, rates…).
    func positiveDouble(_ name: String, default d: Double, max: Double = 1e12) throws -> Double {
        guard let s = options[name] else { return d }
        guard let v = Double(s), v > 0, v <= max else {
            throw UsageError("option '--\(name)' needs a number greater than 0 and at most \(max), got '\(s)'")
        }
        return v
    }

    func double(_ name: String, default d: Double) throws -> Double {
        guard let s = options[name] else { return d }
        guard let v = Double(s), v.isFinite else { throw UsageError("option '--\(name)' needs a number, got '\(s)'") }
        return v
    }

    func choice(_ name: String, _ allowed: [String], default d: String) throws -> String {
        let v = options[name] ?? d
        guard allowed.contains(v) else {
            throw UsageError("option '--\(name)' must be one of \(allowed.joined(separator: "|")), got '\(v)'")
        }
        return v
    }

    /// The positional at `index`, or a usage error naming it.
    func positional(_ index: Int, _ what: String) throws -> String {
        guard index < positionals.count else { throw UsageError("missing argument <\(what)>") }
        return positionals[index]
    }

    func noExtraPositionals(beyond n: Int) throws {
        if positionals.count > n { throw UsageError("unexpected argument '\(positionals[n])'") }
    }
}

/// A mistake in how the command was called: printed as one line, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

/// A failure while doing the work: printed as one line, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
