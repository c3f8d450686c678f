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

    static func format(_ d: Date) -> String {
        Date.ISO8601FormatStyle().format(d)
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        let path = args.db
        let records: [TokenRecord]
        do { records = try TokenStoreArgument.openExisting(path).list() } catch let e as CommandFailure { throw e } catch {
            throw CommandFailure("\(error)")
        }
        let now = Date()
        if args.json {
            for r in records {
                var o: [String: Any] = ["id": r.id, "name": r.name, "hint": r.hint, "status": r.status(at: now),
                                        "created": format(r.createdAt)]
                if let e = r.expiresAt { o["expires"] = format(e) }
                if let m = r.maps { o["maps"] = m }
                if let v = r.revokedAt { o["revoked"] = format(v) }
                let data = try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys])
                print(String(decoding: data, as: UTF8.self))
            }
            return 0
        }
        print("ID  STATUS   NAME                 HINT        CREATED               EXPIRES               MAPS")
        for r in records {
            func pad(_ s: String, _ n: Int) -> String { s.padding(toLength: max(n, s.count), withPad: " ", startingAt: 0) }
            let columns: [String] = [
                pad(String(r.id), 3), pad(r.status(at: now), 8), pad(r.name, 20), pad(r.hint, 11),
                pad(format(r.createdAt), 21), pad(r.expiresAt.map(format) ?? "never", 21),
                r.maps?.joined(separator: ",") ?? "all",
            ]
            print(columns.joined(separator: " "))
        }
        return 0
    }
}
