import Foundation
import Synchronization
import Testing
@testable import VPSServer

@Suite struct FileDerivedCacheTests {
    @Test func aFileIsReadOncePerStateAndAgainWhenItChanges() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("derived-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reads = Atomic<Int>(0)
        let cache = FileDerivedCache<Int> { p in
            reads.add(1, ordering: .relaxed)
            return try Data(contentsOf: URL(fileURLWithPath: p)).count
        }
        #expect(throws: (any Error).self) { try cache.value(ofFileAt: path) }   // missing: an error, nothing cached
        try Data("four".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try cache.value(ofFileAt: path) == 4)
        #expect(try cache.value(ofFileAt: path) == 4)
        #expect(reads.load(ordering: .relaxed) == 1)
        try Data("eleven char".utf8).write(to: URL(fileURLWithPath: path))     // a new size, inode or time
        #expect(try cache.value(ofFileAt: path) == 11)
        #expect(reads.load(ordering: .relaxed) == 2)
    }
}
