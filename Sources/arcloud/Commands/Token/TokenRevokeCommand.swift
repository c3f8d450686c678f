import Foundation
import VPSServer

struct TokenRevokeCommand: Command {
    static let name = "token revoke"
    static let summary = "Revoke a token by id or name (takes effect on running servers at once)"
    static let overview = """
        USAGE: arcloud token revoke --db <tokens-file|postgresql://…> (--id <n> | --name <name>)

        Marks the token revoked; a running `arcloud serve` refuses it (401) from its next
        request on (every replica sharing a PostgreSQL store). With --name every unrevoked token of that name is revoked.
        Exits 1 when nothing matched.
        """

    struct Options: CommandArguments {
        let db = Option.required("db", .text.placeholder("<file|url>"),
                                 help: "Token store: an SQLite file or a PostgreSQL URL")
        let id = Option("id", ValueParser<Int64>.integer(), help: "The id shown by `arcloud token list`")
        let name = Option("name", .text.placeholder("<name>"), help: "The name given at creation")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let path = args.db
        let store = try TokenStoreLocation.open(path, mustExist: true)
        switch (args.id, args.name) {
        case (let n?, nil):
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
