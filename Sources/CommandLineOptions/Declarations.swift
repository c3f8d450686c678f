/// A command's arguments, declared once: a struct whose stored properties are `Option`s,
/// `Flag`s and `Positional`s, in the order the help lists them and the parser checks them.
/// From it follow the help's OPTIONS section (`optionsHelp`), the check for unknown
/// options, and the parsed values (`ParsedArguments`):
///
///     struct Options: CommandArguments {
///         let map = Option.required("map", .text.placeholder("<file>"), help: "The map")
///         let workers = Option("workers", .integer(in: 1...256), default: 4, help: "Threads")
///         let quiet = Flag("quiet", help: "Print nothing")
///         let session = Positional("session dir")
///     }
///     let args = try ParsedArguments<Options>(["--map", "m.vpsmap", "walk"])
///     args.workers  // 4
public protocol CommandArguments: Sendable {
    init()
}

/// An option that takes a value: `--name value` or `--name=value`.
///
/// Three kinds, by how an absent option reads: with a `default` (the value is that), without
/// one (`Value` is optional and reads nil), or `required` (absent is a usage error).
public struct Option<Value: Sendable>: Sendable {
    /// The name without `--`.
    public let name: String
    let entry: OptionEntry

    /// An option that reads `default` when absent. The help says "(default: <default>)",
    /// or "(default: <defaultText>)" when the default is better said in words (the cores of
    /// this machine); `defaultNote` follows the default after a semicolon.
    public init(_ name: String, _ parser: ValueParser<Value>, default value: Value, help: String,
                defaultText: String? = nil, defaultNote: String? = nil,
                deprecatedAliases: [DeprecatedAlias] = [], hidden: Bool = false) {
        self.name = name
        let shown = [defaultText ?? parser.describe(value), defaultNote].compactMap { $0 }.joined(separator: "; ")
        entry = OptionEntry(name: name, aliases: deprecatedAliases, placeholder: parser.placeholder, help: help,
                            defaultText: shown, isRequired: false, isHidden: hidden, choices: parser.choices) { given in
            guard let given else { return value }
            return try given.parse(with: parser)
        }
    }

    /// An option that reads nil when absent; `defaultText`, when given, says in the help
    /// what the command does then.
    public init<Wrapped>(_ name: String, _ parser: ValueParser<Wrapped>, help: String, defaultText: String? = nil,
                         deprecatedAliases: [DeprecatedAlias] = [], hidden: Bool = false) where Value == Wrapped? {
        self.name = name
        entry = OptionEntry(name: name, aliases: deprecatedAliases, placeholder: parser.placeholder, help: help,
                            defaultText: defaultText, isRequired: false, isHidden: hidden, choices: parser.choices) { given in
            guard let given else { return Wrapped?.none }
            return Wrapped?.some(try given.parse(with: parser))
        }
    }

    private init(required name: String, _ parser: ValueParser<Value>, help: String,
                 deprecatedAliases: [DeprecatedAlias], hidden: Bool) {
        self.name = name
        entry = OptionEntry(name: name, aliases: deprecatedAliases, placeholder: parser.placeholder, help: help,
                            defaultText: nil, isRequired: true, isHidden: hidden, choices: parser.choices) { given in
            guard let given else { throw UsageError("missing required option '--\(name)'") }
            return try given.parse(with: parser)
        }
    }

    /// An option that must be given; the help says "(required)".
    public static func required(_ name: String, _ parser: ValueParser<Value>, help: String,
                                deprecatedAliases: [DeprecatedAlias] = [], hidden: Bool = false) -> Option {
        Option(required: name, parser, help: help, deprecatedAliases: deprecatedAliases, hidden: hidden)
    }
}

/// A former name of an option that still works for a while: the parser takes it as the
/// option, warns that it is deprecated, and refuses it given together with the option.
public struct DeprecatedAlias: Sendable, Equatable {
    /// The former name without `--`.
    public let name: String
    /// Why it is still there and when it goes, for the help: "Deprecated alias of
    /// --workers, <note>".
    public let note: String

    public init(_ name: String, note: String) {
        self.name = name
        self.note = note
    }
}

/// A switch without a value: `--json`. Reads true when given.
public struct Flag: Sendable {
    /// The name without `--`.
    public let name: String
    let help: String
    let isHidden: Bool

    public init(_ name: String, help: String, hidden: Bool = false) {
        self.name = name
        self.help = help
        self.isHidden = hidden
    }
}

/// An argument without a name, taken by position among the arguments that are not options.
/// The USAGE line, written by hand, shows it; the parser refuses a missing one (or any
/// beyond the last declared, unless that one takes the rest).
public struct Positional<Value: Sendable>: Sendable {
    /// The name in messages: "missing argument <session dir>".
    public let name: String
    let takesRest: Bool

    /// One argument, which must be there.
    public init(_ name: String) where Value == String {
        self.name = name
        takesRest = false
    }

    /// All the remaining arguments, none or more.
    public init(zeroOrMore name: String) where Value == [String] {
        self.name = name
        takesRest = true
    }
}

/// An option's value as given on the command line, and the spelling it was given under
/// (the option's name or a deprecated alias), which messages name.
struct GivenValue: Sendable {
    let spelling: String
    let text: String

    /// The value parsed, or a usage error naming the option as it was spelled.
    func parse<T>(with parser: ValueParser<T>) throws -> T {
        do { return try parser.parse(text) } catch let refused as InvalidValue {
            throw UsageError("option '--\(spelling)' \(refused.predicate), got '\(refused.got ?? text)'")
        } catch let usage as UsageError {
            throw usage
        } catch {
            throw UsageError("option '--\(spelling)': \(error)")
        }
    }
}

/// What the parser and the help need of an option, whatever its value's type.
struct OptionEntry: Sendable {
    let name: String
    let aliases: [DeprecatedAlias]
    let placeholder: String
    let help: String
    let defaultText: String?
    let isRequired: Bool
    let isHidden: Bool
    let choices: [Choice]
    let resolve: @Sendable (GivenValue?) throws -> any Sendable
}
