/// A command line parsed against a command's declared arguments. Every value is parsed and
/// checked when it is made, so a command starts work only with a valid command line; read
/// the values by the declarations' property names: `args.workers`, `args.json`, `args.session`.
///
/// The grammar: `--name value`, `--name=value`, `--flag`, positionals anywhere, `--` ends
/// the options (what follows is positional, even when it starts with `-`), a lone `-` and
/// negative numbers are positionals. A value never starts with `--`: `--map --out x` is a
/// missing map, not a map named `--out` (`--map=--out` says that). The last of repeated
/// options wins.
@dynamicMemberLookup
public struct ParsedArguments<Declared: CommandArguments>: Sendable {
    /// Lines to show the user (without a prefix): one per deprecated alias used.
    public let warnings: [String]
    private let declared: Declared
    private let values: [String: any Sendable]
    private let givenOptions: Set<String>

    /// Parses `arguments` (those after the command's name). Throws `UsageError` on the first
    /// mistake: an unknown option, a missing or refused value, a missing or extra positional.
    public init(_ arguments: [String]) throws {
        declared = Declared()
        let declarations = Declarations(of: declared)
        let tokens = try CommandLineTokens(arguments, declarations: declarations)
        var values: [String: any Sendable] = [:]
        var next = 0
        for declaration in declarations.items {
            switch declaration {
            case .option(let entry):
                values[Declarations.key(option: entry.name)] = try entry.resolve(tokens.options[entry.name])
            case .flag(let flag):
                values[Declarations.key(option: flag.name)] = tokens.flags.contains(flag.name)
            case .positional(let name, let takesRest):
                let key = Declarations.key(positional: name)
                if takesRest {
                    values[key] = Array(tokens.positionals.dropFirst(next))
                    next = max(next, tokens.positionals.count)
                } else {
                    guard next < tokens.positionals.count else { throw UsageError("missing argument <\(name)>") }
                    values[key] = tokens.positionals[next]
                    next += 1
                }
            }
        }
        if next < tokens.positionals.count { throw UsageError("unexpected argument '\(tokens.positionals[next])'") }
        self.values = values
        givenOptions = Set(tokens.options.keys)
        warnings = tokens.options.values.compactMap { given in
            guard let canonical = declarations.aliases[given.spelling] else { return nil }
            return "'--\(given.spelling)' is deprecated and will be removed; use '--\(canonical)'"
        }.sorted()
    }

    /// The option's value: what was given, else its default (or nil).
    public subscript<Value>(dynamicMember path: KeyPath<Declared, Option<Value>>) -> Value {
        value(Declarations.key(option: declared[keyPath: path].name))
    }

    /// Whether the flag was given.
    public subscript(dynamicMember path: KeyPath<Declared, Flag>) -> Bool {
        value(Declarations.key(option: declared[keyPath: path].name))
    }

    /// The positional argument (or arguments).
    public subscript<Value>(dynamicMember path: KeyPath<Declared, Positional<Value>>) -> Value {
        value(Declarations.key(positional: declared[keyPath: path].name))
    }

    /// Whether the option was on the command line (under its name or an alias), for an
    /// option with a default whose use depends on whether it was said.
    public func isGiven<Value>(_ path: KeyPath<Declared, Option<Value>>) -> Bool {
        givenOptions.contains(declared[keyPath: path].name)
    }

    private func value<Value>(_ key: String) -> Value {
        guard let value = values[key] else {
            preconditionFailure("\(key) is not declared in \(Declared.self)")
        }
        // Each value was made by its own declaration, whose type the key path names.
        return value as! Value
    }
}

extension CommandArguments {
    /// The help's OPTIONS section ("OPTIONS:" and a line or more per visible option and
    /// flag), or "" when there is none.
    public static var optionsHelp: String {
        OptionsHelp.render(Declarations(of: Self()).items)
    }
}

/// The declarations of a `CommandArguments` struct, in order, with their names checked.
struct Declarations {
    enum Item {
        case option(OptionEntry)
        case flag(Flag)
        case positional(name: String, takesRest: Bool)
    }

    let items: [Item]
    /// Every spelling an option or flag may be given under, with whether it takes a value.
    let spellings: [String: (canonical: String, takesValue: Bool)]
    /// Deprecated alias → the option it stands for.
    let aliases: [String: String]

    init<Declared: CommandArguments>(of declared: Declared) {
        items = Mirror(reflecting: declared).children.compactMap { ($0.value as? DeclaresArgument)?.item }
        var spellings: [String: (canonical: String, takesValue: Bool)] = [:]
        var aliases: [String: String] = [:]
        var positionalNames: Set<String> = []
        func claim(_ spelling: String, for canonical: String, takesValue: Bool) {
            // Two declarations of one name are a mistake in the command, not in its use.
            precondition(spellings[spelling] == nil, "--\(spelling) is declared twice in \(Declared.self)")
            precondition(!spelling.isEmpty && !spelling.hasPrefix("-") && !spelling.contains("="),
                         "'\(spelling)' is not an option name (\(Declared.self))")
            spellings[spelling] = (canonical, takesValue)
        }
        for (index, item) in items.enumerated() {
            switch item {
            case .option(let entry):
                claim(entry.name, for: entry.name, takesValue: true)
                for alias in entry.aliases {
                    claim(alias.name, for: entry.name, takesValue: true)
                    aliases[alias.name] = entry.name
                }
            case .flag(let flag):
                claim(flag.name, for: flag.name, takesValue: false)
            case .positional(let name, let takesRest):
                precondition(positionalNames.insert(name).inserted, "<\(name)> is declared twice in \(Declared.self)")
                precondition(!takesRest || !items[(index + 1)...].contains { if case .positional = $0 { true } else { false } },
                             "<\(name)> takes the remaining arguments, so no positional may follow it (\(Declared.self))")
            }
        }
        self.spellings = spellings
        self.aliases = aliases
    }

    static func key(option name: String) -> String { "--" + name }
    static func key(positional name: String) -> String { "<" + name + ">" }
}

/// A declaration found among a `CommandArguments` struct's properties.
protocol DeclaresArgument {
    var item: Declarations.Item { get }
}

extension Option: DeclaresArgument {
    var item: Declarations.Item { .option(entry) }
}

extension Flag: DeclaresArgument {
    var item: Declarations.Item { .flag(self) }
}

extension Positional: DeclaresArgument {
    var item: Declarations.Item { .positional(name: name, takesRest: takesRest) }
}

/// The command line split into options (by the option's own name), flags and positionals.
struct CommandLineTokens {
    var options: [String: GivenValue] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    init(_ raw: [String], declarations: Declarations) throws {
        var i = 0
        var onlyPositionals = false
        while i < raw.count {
            let argument = raw[i]
            i += 1
            if onlyPositionals || !argument.hasPrefix("--") {
                // `-x` is an option this tool does not have; `-` (standard input) and `-3`
                // (a number) are values.
                if !onlyPositionals, argument.hasPrefix("-"), argument.count > 1, Double(argument) == nil {
                    throw UsageError("unknown option '\(argument)'")
                }
                positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            var spelling = String(argument.dropFirst(2))
            var inline: String?
            if let eq = spelling.firstIndex(of: "=") {
                inline = String(spelling[spelling.index(after: eq)...])
                spelling = String(spelling[..<eq])
            }
            guard let (canonical, takesValue) = declarations.spellings[spelling] else {
                throw UsageError("unknown option '--\(spelling)'")
            }
            guard takesValue else {
                if inline != nil { throw UsageError("option '--\(spelling)' takes no value") }
                flags.insert(canonical)
                continue
            }
            let text: String
            if let inline {
                text = inline
            } else {
                guard i < raw.count else { throw UsageError("option '--\(spelling)' needs a value") }
                guard !raw[i].hasPrefix("--") else {
                    throw UsageError("option '--\(spelling)' needs a value, got the option '\(raw[i])'")
                }
                text = raw[i]
                i += 1
            }
            if let earlier = options[canonical], earlier.spelling != spelling {
                let (old, new) = declarations.aliases[spelling] == nil ? (earlier.spelling, spelling) : (spelling, earlier.spelling)
                throw UsageError("options '--\(old)' (deprecated) and '--\(new)' both given: use '--\(new)' alone")
            }
            options[canonical] = GivenValue(spelling: spelling, text: text)
        }
    }
}
