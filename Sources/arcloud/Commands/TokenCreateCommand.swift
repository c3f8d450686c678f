import Foundation
import VPSServer

struct TokenCreateCommand: Command {
    static let name = "token create"
    static let summary = "Issue a bearer token for the HTTP service (printed once)"
    static let help = """
        USAGE: arcloud token create --db <tokens-file|postgresql://…> --name <name> [--expires 24h] [--maps a,b]

        Creates a random token (`arc_` + 43 base64url characters, 256 random bits), stores
        only its SHA-256 hash in the token store (created when missing) and prints the token
        on stdout. It cannot be shown again: keep it.

        OPTIONS:
          --db <file|url>    Token store shared with `arcloud serve --db` (required): an
                             SQLite file or a PostgreSQL URL
          --name <name>      Who or what the token is for; logged with each request (required)
          --expires <time>   Lifetime: a whole number with s, m, h, d or w (e.g. 90m, 24h, 7d);
                             default never
          --maps <ids>       Comma-separated map ids the token may use; default all maps

        EXAMPLE:
          TOKEN=$(arcloud token create --db tokens.db --name ci --expires 24h --maps gallery)
        """
    static let options: Set<String> = ["db", "name", "expires", "maps"]
    static let switches: Set<String> = []

    static func run(_ args: Arguments) async throws -> Int32 {
        try args.noExtraPositionals(beyond: 0)
        let path = try args.require("db")
        let name = try args.require("name").trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 100 else { throw UsageError("--name must be 1 to 100 characters") }
        var lifetime: TimeInterval?
        if let e = args.value("expires") {
            guard let l = TokenLifetime.parse(e) else {
                throw UsageError("--expires needs a whole number with s, m, h, d or w (e.g. 24h), got '\(e)'")
            }
            lifetime = l
        }
        var maps: [String]?
        if let m = args.value("maps") {
            let ids = m.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !ids.isEmpty else { throw UsageError("--maps needs at least one map id") }
            if let bad = ids.first(where: { !MapDirectory.isValidMapId($0) }) {
                throw UsageError("--maps: '\(bad)' is not a map id (letters, digits, '.', '_', '-')")
            }
            maps = ids
        }
        let created: (token: String, record: TokenRecord)
        let store = try TokenStoreArgument.open(path)
        do { created = try store.create(name: name, lifetime: lifetime, maps: maps) } catch {
            throw CommandFailure("cannot write to the token store \(store.location): \(error)")
        }
        print(created.token)
        var note = "arcloud: token create: issued token \(created.record.id) '\(name)'"
        if let e = created.record.expiresAt { note += ", expires \(TokenListCommand.format(e))" }
        if let m = maps { note += ", maps \(m.joined(separator: ","))" }
        FileHandle.standardError.write(Data((note + "; it is shown only this once\n").utf8))
        return 0
    }
}
