import Foundation
import Testing
import MapModel

/// A map records where it came from without the builder's local paths.
@Suite struct MapSourceTests {
    @Test(arguments: [
        ("Datasets/gallery-mapping", "session Datasets/gallery-mapping"),
        ("./Datasets/../Datasets/gallery-mapping/", "session Datasets/gallery-mapping"),
        ("/home/ana/arcloud/Datasets/gallery-mapping", "session Datasets/gallery-mapping"),
        ("/home/ana/captures/lobby-2026", "session lobby-2026"),
        ("../captures/lobby-2026", "session lobby-2026"),
        ("/home/ana/arcloud-old/x", "session x"),   // a sibling folder sharing a prefix is outside
    ])
    func recordsPathsInsideTheWorkingDirectoryRelativeAndOthersByName(_ path: String, _ expected: String) {
        #expect(MapMetadata.portableSource("session", path: path, workingDirectory: "/home/ana/arcloud") == expected)
    }

    @Test func neverRecordsTheWorkingDirectoryItself() {
        let source = MapMetadata.portableSource("colmap", path: "/srv/maps/project/sparse/0", workingDirectory: "/home/ana")
        #expect(source == "colmap 0")
        #expect(!source.contains("/srv"))
    }
}
