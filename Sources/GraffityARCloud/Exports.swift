// `import GraffityARCloud` is enough for everything this module's public API mentions:
// the geometry types (poses, quaternions, intrinsics), the data model (recorded sessions
// and their scripts, scene content and navigation) and the localization module, whose
// `LocalizerOptions` configure the embedded backend. Map files, importers, evaluation and
// scene synthesis stay out of an app's namespace.
@_exported import Geometry
@_exported import Localization
@_exported import VPSModel
