/// Every command `arcloud` knows, in the order `--help` lists them.
/// Add a command here: one line, its type in `Commands/`.
let allCommands: [any Command.Type] = [
    VersionCommand.self,
    BenchPoseCommand.self,
    BenchFeaturesCommand.self,
    DatasetValidateCommand.self,
]
