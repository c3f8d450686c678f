struct VersionCommand: Command {
    static let name = "version"
    static let summary = "Print the version of arcloud"
    static let overview = """
        USAGE: arcloud version

        Prints the version of arcloud (the same as `arcloud --version`).
        """

    struct Options: CommandArguments {}

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        print("arcloud \(arcloudVersion)")
        return 0
    }
}
