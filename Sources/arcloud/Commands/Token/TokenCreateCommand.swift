import Foundation
import VPSServer

struct TokenCreateCommand: Command {
    static let name = "token create"
    static let summary = "Issue a bearer token for the HTTP service (printed once)"
    static let overview = """
        USAGE: arcloud token create --db <tokens-file|postgresql://…> --name <name> [--expires 24h] [--maps a,b]

        Creates a random token (`arc_` + 43 base64url characters, 256 random bits), stores
        only its SHA-256 hash in the token store (created when missing) and prints the token
        on stdout. It cannot be shown again: keep it.
        """

    static let epilogue = """
        EXAMPLE:
          TOKEN=$(arcloud token create --db tokens.db --name ci --expires 24h --maps gallery)
        """

    struct Options: CommandArguments {
        let db = Option.required("db", .text.placeholder("<file|url>"),
                                 help: "Token store shared with `arcloud serve --db`: an SQLite file or a PostgreSQL URL")
        let name = Option.required("name", .text.placeholder("<name>"),
                                   help: "Who or what the token is for; logged with each request")
        let expires = Option("expires", lifetimeParser,
                             help: "Lifetime: a whole number with s, m, h, d or w (e.g. 90m, 24h, 7d)", defaultText: "never")
        let maps = Option("maps", mapIdsParser, help: "Comma-separated map ids the token may use", defaultText: "all maps")
    }

    /// `--expires 24h`.
    static let lifetimeParser = ValueParser<TimeInterval>(placeholder: "<time>") { text in
        guard let lifetime = TokenLifetime.parse(text) else {
            throw InvalidValue("needs a whole number with s, m, h, d or w (e.g. 24h)")
        }
        return lifetime
    }

    /// `--maps a,b`: map ids as the map directory names them.
    static let mapIdsParser = ValueParser<[String]>(placeholder: "<ids>") { text in
        let ids = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !ids.isEmpty else { throw InvalidValue("needs at least one map id") }
        if let bad = ids.first(where: { !MapDirectory.isValidMapId($0) }) {
            throw InvalidValue("needs map ids (letters, digits, '.', '_', '-')", got: bad)
        }
        return ids
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let path = args.db
        let name = args.name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 100 else { throw UsageError("--name must be 1 to 100 characters") }
        let lifetime = args.expires
        let maps = args.maps
        let created: (token: String, record: TokenRecord)
        let store = try TokenStoreLocation.open(path, mustExist: false)
        do { created = try store.create(name: name, lifetime: lifetime, maps: maps) } catch {
            throw CommandFailure("cannot write to the token store \(store.location): \(error)")
        }
        print(created.token)
        var note = "arcloud: token create: issued token \(created.record.id) '\(name)'"
        if let e = created.record.expiresAt { note += ", expires \(TokenListing.format(e))" }
        if let m = maps { note += ", maps \(m.joined(separator: ","))" }
        FileHandle.standardError.write(Data((note + "; it is shown only this once\n").utf8))
        return 0
    }
}
