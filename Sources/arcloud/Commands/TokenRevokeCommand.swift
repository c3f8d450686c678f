import Foundation
import VPSServer

struct TokenRevokeCommand: Command {
    static let name = "token revoke"
    static let summary = "Revoke a token by id or name (takes effect on running servers at once)"
    static let help = """
        USAGE: arcloud token revoke --db <tokens-file|postgresql://…> (--id <n> | --name <name>)

        Marks the token revoked; a running `arcloud serve` refuses it (401) from its next
        request on (every replica sharing a PostgreSQL store). With --name every unrevoked token of that name is revoked.
        Exits 1 when nothing matched.

        OPTIONS:
          --db <file|url> Token store (required): an SQLite file or a PostgreSQL URL
          --id <n>        The id shown by `arcloud token list`
          --name <name>   The name given at creation
        """
    static let options: Set<String> = ["db", "id", "name"]
    static let switches: Set<String> = []

    static func run(_ args: Arguments) async throws -> Int32 {
        try args.noExtraPositionals(beyond: 0)
        let path = try args.require("db")
        let store = try TokenStoreArgument.openExisting(path)
        switch (args.value("id"), args.value("name")) {
        case (let id?, nil):
            guard let n = Int64(id) else { throw UsageError("--id needs a whole number, got '\(id)'") }
            guard try store.revoke(id: n) else { throw CommandFailure("no active token with id \(n)") }
            print("revoked token \(n)")
        case (nil, let name?):
            let count = try store.revoke(name: name)
            guard count > 0 else { throw CommandFailure("no active token named '\(name)'") }
            print("revoked \(count) token(s) named '\(name)'")
        default:
            throw UsageError("give exactly one of --id or --name")
        }
        return 0
    }
}
