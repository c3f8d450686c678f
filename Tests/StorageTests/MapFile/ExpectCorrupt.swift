import Foundation
import Testing
import MapModel
import Storage

/// Expects loading the map file at `path` to fail with a `MapFileError` naming the file and
/// `word`.
func expectCorrupt(_ path: String, mentioning word: String, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        _ = try VPSMap.load(from: path)
        Issue.record("\(path) loaded but should not", sourceLocation: sourceLocation)
    } catch let e as MapFileError {
        #expect(e.description.contains(path) && e.description.contains(word), "\(e)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected MapFileError, got \(error)", sourceLocation: sourceLocation)
    }
}
