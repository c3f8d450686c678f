/// Every command `arcloud` knows, in the order `--help` lists them.
/// Add a command here: one line, its type in `Commands/`.
let allCommands: [any Command.Type] = [
    VersionCommand.self,
    LocalizeCommand.self,
    BenchLocalizeCommand.self,
    DatasetValidateCommand.self,
    DatasetSynthCommand.self,
    ServeCommand.self,
    BenchServeCommand.self,
    TokenCreateCommand.self,
    TokenListCommand.self,
    TokenRevokeCommand.self,
]
