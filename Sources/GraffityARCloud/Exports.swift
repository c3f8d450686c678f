// `import GraffityARCloud` is enough for everything this module's public API mentions: the
// geometry types (poses, quaternions, intrinsics) and the few VPS types an app hands in or
// gets back (recorded sessions and their scripts, scene content, localizer options). The
// rest of VPS (the localizer, map files, datasets tooling) stays out of the app's namespace;
// import VPS for it.
@_exported import Geometry
@_exported import struct VPS.RecordedSession
@_exported import struct VPS.ScriptAction
@_exported import struct VPS.SceneContent
@_exported import struct VPS.SceneObject
@_exported import struct VPS.MapSection
@_exported import struct VPS.NavigationGraph
@_exported import struct VPS.LocalizerOptions
