/// How long a simulator script may be: `session.json`'s `script`, or a `simulate --script`
/// file. A script is what one tester does during one replay (the shipped walk's has 3
/// actions); every action runs on the main actor and prints an event, so a generated file
/// gone wrong must be refused where it is read, not replayed for minutes or until memory
/// runs out (a million taps took 46 s and 0.7 GB from `session.json`, and more than 7 GB
/// from a script file, decoded entry by entry).
public enum ScriptLimits {
    /// Most actions a script may hold: one every 0.36 s for an hour.
    public static let maxActions = 10_000

    /// Largest script file read, in bytes: 10,000 actions take about 0.6 MB written as the
    /// shipped script is; 4 MiB leaves room for indentation and long node names, and keeps
    /// the JSON parser's memory (tens of times the file) small.
    public static let maxFileBytes = 4 << 20

    /// Why `count` actions are too many, or nil.
    public static func problem(count: Int) -> String? {
        count > maxActions ? "\(count) actions; a script holds at most \(maxActions)" : nil
    }
}
