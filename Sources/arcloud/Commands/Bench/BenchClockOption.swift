import Benchmarks

extension BenchClock {
    /// `--clock wall|cpu`, wall by default; `threads` says which threads CPU time covers.
    static func option(threads: String) -> Option<BenchClock> {
        let kinds = ["wall": wall, "cpu": cpu]
        let parser = ValueParser<BenchClock>(placeholder: "<kind>", describe: { $0.name.lowercased() }) { text in
            guard let clock = kinds[text] else { throw InvalidValue("must be one of wall|cpu") }
            return clock
        }
        return Option("clock", parser, default: wall,
                      help: "wall: elapsed time; cpu: CPU time of the process (\(threads)), steadier on a busy machine")
    }
}
