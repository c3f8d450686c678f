import Foundation
import MapModel
import Support
import Synchronization
import Storage

/// Maps loaded on first use from a directory of `<id>.vpsmap` files, prepared (e.g. into
/// a localizer) and kept in a cache bounded by a count of maps and, optionally, by the
/// memory they hold; the least recently used map goes first, but never one a request is
/// using (each use holds a reference: `withEntry`). Safe from many threads: concurrent
/// requests for a map that is loading wait for that one load; requests for loaded maps
/// are not held up.
///
/// What a map holds is measured when it loads: the growth of the C heap across reading
/// the file and preparing it (`MemoryUsage.heapBytes`), at least the file's size. Loads run
/// one at a time so that one load's growth is not counted in another's (the localizations
/// running meanwhile allocate a few megabytes of scratch at most). Before a load, unused
/// maps are evicted to make room for what that map measured last time (its file size the
/// first time); after it, for what it measured now. Maps in use are never evicted, so the
/// budget is exceeded while more maps are in use than it holds, until they are released.
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
        /// Memory the prepared map holds, as measured when it loaded.
        public var bytes: Int
    }

    private struct Entry {
        var slot: Slot
        var lastUse: UInt64
        /// Requests using the map now (or waiting for its load).
        var users: Int
        /// Set once loaded.
        var bytes: Int?
    }

    private struct Entries {
        var slots: [String: Entry] = [:]
        var clock: UInt64 = 0
        var statistics = MapCacheStatistics()
        /// Bytes each map measured at its last load, for making room before the next.
        var measured: [String: Int] = [:]
        var loadedCount: Int { slots.values.filter { $0.bytes != nil }.count }
    }

    /// The directory holding `<id>.vpsmap` files.
    public let directory: URL
    /// Maps kept in memory at most.
    public let capacity: Int
    /// Bytes the maps kept in memory may hold together, or nil for no bound.
    public let budgetBytes: Int?
    private let prepare: Prepare
    /// What a prepared map holds, when the caller knows; nil measures the heap.
    private let size: (@Sendable (Prepared) -> Int)?
    private let entries = Locked(Entries())
    /// Held while a map loads: loads are measured one at a time.
    private let loading = Locked(())
    /// Content versions of the files, each hashed once per file state.
    public let versions = MapContentVersions()

    /// - Parameters:
    ///   - capacity: maps kept in memory at most.
    ///   - budgetBytes: memory the maps kept may hold together, or nil for no bound.
    ///   - size: what a prepared map holds, when the caller knows better than the heap's
    ///     growth over its load (which other threads' allocations blur).
    public init(directory: URL, capacity: Int = 4, budgetBytes: Int? = nil,
                size: (@Sendable (Prepared) -> Int)? = nil, prepare: @escaping Prepare) {
        self.directory = directory
        self.capacity = max(1, capacity)
        self.budgetBytes = budgetBytes.map { max(0, $0) }
        self.size = size
        self.prepare = prepare
        entries.withLock { $0.statistics.budgetBytes = self.budgetBytes }
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
    public var loadedCount: Int { entries.withLock { $0.loadedCount } }

    /// Hits, loads, evictions and the memory held now.
    public var statistics: MapCacheStatistics {
        entries.withLock { e in
            var s = e.statistics
            s.maps = e.loadedCount
            s.residentBytes = e.slots.values.reduce(0) { $0 + ($1.bytes ?? 0) }
            return s
        }
    }

    /// The prepared map `id`, loading and preparing it when not cached. Nothing holds it
    /// in the cache once this returns: use `withEntry` while using the map.
    public func value(_ id: String) throws(LocalizationEngineError) -> Prepared {
        try withEntry(id) { $0.value }
    }

    /// The content version of map `id`: the loaded one when the map is in memory (what
    /// this process serves), else the file's current one; nil when there is no such map.
    public func version(of id: String) -> String? {
        let cached = entries.withLock { $0.slots[id]?.slot }.flatMap { slot in slot.value.withLock { $0?.version } }
        if let cached { return cached }
        return file(of: id).flatMap { try? versions.version(ofFileAt: $0.path) }
    }

    /// Runs `body` with the prepared map `id` and its content version, loading it when not
    /// cached. The map is not evicted while `body` runs.
    public func withEntry<R>(_ id: String, _ body: (Loaded) throws(LocalizationEngineError) -> R)
        throws(LocalizationEngineError) -> R {
        guard let url = file(of: id) else { throw .unknownMap(id) }
        let slot = entries.withLock { e -> Slot in
            e.clock += 1
            if var found = e.slots[id] {
                found.users += 1
                found.lastUse = e.clock
                e.slots[id] = found
                return found.slot
            }
            let s = Slot()
            e.slots[id] = Entry(slot: s, lastUse: e.clock, users: 1, bytes: nil)
            return s
        }
        defer {
            entries.withLock { e in
                if e.slots[id]?.slot === slot { e.slots[id]!.users -= 1 }
                evict(&e)
            }
        }
        let result = slot.value.withLock { v -> Result<Loaded, LocalizationEngineError> in
            if let v {
                entries.withLock { $0.statistics.hits += 1 }
                return .success(v)
            }
            let loaded = loading.withLock { _ in load(id, url) }
            if case .success(let l) = loaded {
                v = l
                entries.withLock { e in
                    e.statistics.loads += 1
                    e.measured[id] = l.bytes
                    if e.slots[id]?.slot === slot { e.slots[id]!.bytes = l.bytes }
                    evict(&e)
                }
            }
            return loaded
        }
        return try body(try result.get())
    }

    /// Reads, prepares and measures map `id`, after evicting unused maps to make room.
    private func load(_ id: String, _ url: URL) -> Result<Loaded, LocalizationEngineError> {
        let fileBytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        entries.withLock { e in evict(&e, incoming: e.measured[id] ?? fileBytes) }
        let before = MemoryUsage.heapBytes()
        let prepared: Prepared
        let version: String
        do {
            var map: VPSMap
            var v: String
            // Hash, load, and check the file did not change in between (a rollout
            // replacing it): the version must describe the map actually loaded.
            var attempts = 0
            repeat {
                attempts += 1
                let state = try versions.versionAndState(ofFileAt: url.path)
                v = state.version
                map = try VPSMap.load(from: url.path)
                if (try? FileState(path: url.path)) == state.state { break }
            } while attempts < 3
            version = v
            do throws(LocalizationEngineError) { prepared = try prepare(map) } catch { return .failure(error) }
        } catch {
            return .failure(.unavailable("map '\(id)' cannot be loaded: \(error)"))
        }
        // The map itself is released by now; what remains is what `prepared` holds.
        let bytes = size?(prepared) ?? max(MemoryUsage.heapBytes() - before, fileBytes)
        return .success(Loaded(value: prepared, version: version, bytes: bytes))
    }

    /// Evicts unused maps, least recently used first, until the loaded ones (and one more
    /// of `incoming` bytes, when given) fit the count and the budget. Entries whose load
    /// failed and that nobody uses are dropped too.
    private func evict(_ e: inout Entries, incoming: Int? = nil) {
        for (id, entry) in e.slots where entry.bytes == nil && entry.users == 0 { e.slots.removeValue(forKey: id) }
        while true {
            let held = e.slots.values.reduce(0) { $0 + ($1.bytes ?? 0) } + (incoming ?? 0)
            let count = e.loadedCount + (incoming == nil ? 0 : 1)
            guard count > capacity || budgetBytes.map({ held > $0 }) == true else { return }
            guard let victim = e.slots.filter({ $0.value.users == 0 && $0.value.bytes != nil })
                .min(by: { $0.value.lastUse < $1.value.lastUse })?.key else { return }
            e.slots.removeValue(forKey: victim)
            e.statistics.evictions += 1
        }
    }
}

/// What the map cache did and holds, for `/metrics`.
public struct MapCacheStatistics: Sendable, Hashable {
    /// Uses of a map that was already loaded (or whose load another request was finishing).
    public var hits = 0
    /// Maps read from their files and prepared.
    public var loads = 0
    /// Maps dropped from memory to keep within the count or the budget.
    public var evictions = 0
    /// Maps in memory now and the bytes they hold.
    public var maps = 0
    public var residentBytes = 0
    /// The memory budget, when one is set.
    public var budgetBytes: Int?

    public init() {}
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
