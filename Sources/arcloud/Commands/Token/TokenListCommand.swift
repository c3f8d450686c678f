import Foundation
import VPSServer

struct TokenListCommand: Command {
    static let name = "token list"
    static let summary = "List issued tokens (never the tokens themselves)"
    static let overview = """
        USAGE: arcloud token list --db <tokens-file|postgresql://…> [--json]

        One line per token: id, status (active, expired, revoked), name, hint (the first
        characters only), created, expires and allowed maps.
        """

    struct Options: CommandArguments {
        let db = Option.required("db", .text.placeholder("<file|url>"),
                                 help: "Token store: an SQLite file or a PostgreSQL URL")
        let json = Flag("json", help: "One JSON object per line instead of a table")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let records = try TokenStoreLocation.open(args.db, mustExist: true).list()
        let now = Date()
        if !args.json { print(TokenListing.header) }
        for r in records { print(args.json ? try TokenListing.json(r, at: now) : TokenListing.row(r, at: now)) }
        return 0
    }
}
