/// Every command `arcloud` knows, in the order `--help` lists them.
/// Add a command here: one line, its type in `Commands/`.
let allCommands: [any Command.Type] = [
    VersionCommand.self,
    LocalizeCommand.self,
    BenchLocalizeCommand.self,
    DatasetValidateCommand.self,
    DatasetSynthCommand.self,
    DatasetImportTUMCommand.self,
    DatasetImportCOLMAPCommand.self,
    DatasetExportTUMCommand.self,
    MapBuildCommand.self,
    MapInspectCommand.self,
    MapSceneExportCommand.self,
    MapSceneImportCommand.self,
    ServeCommand.self,
    BenchServeCommand.self,
    BenchPoseCommand.self,
    BenchFeaturesCommand.self,
    TokenCreateCommand.self,
    TokenListCommand.self,
    TokenRevokeCommand.self,
    SimulateCommand.self,
]
