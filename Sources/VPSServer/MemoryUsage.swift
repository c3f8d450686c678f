import Foundation
import Vision

/// This process's memory, as the map cache and the benchmarks measure it.
public enum MemoryUsage {
    /// Bytes the C heap has handed out and not taken back (`heapAllocatedBytes`). Unlike the resident size it falls when memory is freed and does not
    /// count freed pages the allocator keeps, so the growth across a map's load is what
    /// that map holds (plus whatever other threads allocated meanwhile).
    public static func heapBytes() -> Int { heapAllocatedBytes }

    /// Resident set size from `/proc/self/statm`, or nil where it cannot be read.
    public static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
