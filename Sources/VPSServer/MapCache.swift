import Foundation
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
        let value = Mutex<Prepared?>(nil)
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
    private let entries = Mutex(Entries())
    private let loaded = Atomic<Int>(0)

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
        let result = slot.value.withLock { v -> Result<Prepared, LocalizationEngineError> in
            if let v { return .success(v) }
            let map: VPSMap
            do { map = try VPSMap.load(from: url.path) } catch {
                return .failure(.unavailable("map '\(id)' cannot be loaded: \(error)"))
            }
            do throws(LocalizationEngineError) {
                let prepared = try prepare(map)
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
