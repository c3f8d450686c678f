struct VersionCommand: Command {
    static let name = "version"
    static let summary = "Print the version of arcloud"
    static let help = """
        USAGE: arcloud version

        Prints the version of arcloud (the same as `arcloud --version`).
        """
    static let options: Set<String> = []
    static let switches: Set<String> = []
    static func run(_ args: Arguments) async throws -> Int32 {
        try args.noExtraPositionals(beyond: 0)
        print("arcloud \(arcloudVersion)")
        return 0
    }
}
