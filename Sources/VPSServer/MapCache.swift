import Foundation
import Locking
import Synchronization
import VPS

/// Maps loaded on first use from a directory of `<id>.vpsmap` files, prepared (e.g. into
/// a localizer) and kept in a bounded, least-recently-used cache. Safe from many threads:
/// concurrent requests for a map that is loading wait for that one load; other maps are
/// not held up.
public final class MapCache<Prepared: Sendable>: Sendable {
    /// Turns a loaded map into what the cache keeps.
    public typealias Prepare = @Sendable (VPSMap) throws(LocalizationEngineError) -> Prepared

    /// One map's cache entry; its lock is held while the map loads.
    private final class Slot: Sendable {
        let value = Locked<Loaded?>(nil)
    }

    /// A prepared map with the content version of the file it was loaded from.
    public struct Loaded: Sendable {
        public var value: Prepared
        /// SHA-256 of the map file as loaded (see `MapContentVersions`).
        public var version: String
    }

    private struct Entries {
        var slots: [String: (slot: Slot, lastUse: UInt64)] = [:]
        var clock: UInt64 = 0
    }

    /// The directory holding `<id>.vpsmap` files.
    public let directory: URL
    /// Maps kept in memory at most.
    public let capacity: Int
    private let prepare: Prepare
    private let entries = Locked(Entries())
    private let loaded = Atomic<Int>(0)
    /// Content versions of the files, each hashed once per file state.
    public let versions = MapContentVersions()

    public init(directory: URL, capacity: Int = 4, prepare: @escaping Prepare) {
        self.directory = directory
        self.capacity = max(1, capacity)
        self.prepare = prepare
    }

    /// The file of map `id`, or nil when the id is invalid or no such file exists.
    public func file(of id: String) -> URL? {
        guard MapDirectory.isValidMapId(id) else { return nil }
        let url = directory.appendingPathComponent(id + ".vpsmap")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// Ids of the map files in the directory, sorted.
    public func mapIds() -> [String] { MapDirectory.mapIds(in: directory) }

    /// Maps currently in memory.
    public var loadedCount: Int { loaded.load(ordering: .relaxed) }

    /// The prepared map `id`, loading and preparing it when not cached (and evicting the
    /// least recently used map beyond `capacity`).
    public func value(_ id: String) throws(LocalizationEngineError) -> Prepared {
        try entry(id).value
    }

    /// The content version of map `id`: the loaded one when the map is in memory (what
    /// this process serves), else the file's current one; nil when there is no such map.
    public func version(of id: String) -> String? {
        let cached = entries.withLock { $0.slots[id]?.slot }.flatMap { slot in slot.value.withLock { $0?.version } }
        if let cached { return cached }
        return file(of: id).flatMap { try? versions.version(ofFileAt: $0.path) }
    }

    /// The prepared map `id` with its content version, loading it when not cached (see
    /// `value(_:)`).
    public func entry(_ id: String) throws(LocalizationEngineError) -> Loaded {
        guard let url = file(of: id) else { throw .unknownMap(id) }
        let slot = entries.withLock { e -> Slot in
            e.clock += 1
            if let found = e.slots[id] {
                e.slots[id]?.lastUse = e.clock
                return found.slot
            }
            let s = Slot()
            e.slots[id] = (s, e.clock)
            if e.slots.count > capacity, let victim = e.slots.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                e.slots.removeValue(forKey: victim)
            }
            return s
        }
        let prepare = self.prepare
        let versions = self.versions
        let result = slot.value.withLock { v -> Result<Loaded, LocalizationEngineError> in
            if let v { return .success(v) }
            var map: VPSMap
            var version: String
            do {
                // Hash, load, and check the file did not change in between (a rollout
                // replacing it): the version must describe the map actually loaded.
                var attempts = 0
                repeat {
                    attempts += 1
                    let before = try versions.versionAndState(ofFileAt: url.path)
                    version = before.version
                    map = try VPSMap.load(from: url.path)
                    if (try? FileState(path: url.path)) == before.state { break }
                } while attempts < 3
            } catch {
                return .failure(.unavailable("map '\(id)' cannot be loaded: \(error)"))
            }
            do throws(LocalizationEngineError) {
                let prepared = Loaded(value: try prepare(map), version: version)
                v = prepared
                return .success(prepared)
            } catch {
                return .failure(error)
            }
        }
        // Maps in memory: slots still in the table whose map is loaded.
        let count = entries.withLock { e in e.slots.values.filter { $0.slot.value.withLock { $0 != nil } }.count }
        loaded.store(count, ordering: .relaxed)
        return try result.get()
    }
}

/// Naming rules of a maps directory.
public enum MapDirectory {
    /// Whether `id` can name a map file: letters, digits, `.`, `_`, `-`, not starting with
    /// `.` — never a path, so a request cannot reach outside the directory.
    public static func isValidMapId(_ id: String) -> Bool {
        guard !id.isEmpty, id.utf8.count <= 128, id.first != "." else { return false }
        return id.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
        }
    }

    /// Ids of the `<id>.vpsmap` files in `directory`, sorted.
    public static func mapIds(in directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".vpsmap") }.map { String($0.dropLast(7)) }.filter(isValidMapId).sorted()
    }
}
