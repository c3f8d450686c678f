import Foundation

/// Reads back the per-frame outcomes of a run folder written by `arcloud localize`
/// (`results.jsonl`, one `FrameOutcome` per line).
public enum RunResults {
    /// The outcomes in `folder` (a run folder, or its `results.jsonl`). Errors name the
    /// file and the line.
    public static func load(from folder: URL) throws -> [FrameOutcome] {
        let file = folder.lastPathComponent == BatchReport.File.results ? folder
            : folder.appendingPathComponent(BatchReport.File.results)
        let data: Data
        do { data = try RegularFile.read(file) } catch let e as RegularFileError {
            throw DatasetImportError(e.path, e.problem + " (expected the output folder of `arcloud localize`)")
        }
        let decoder = JSONDecoder()
        var out: [FrameOutcome] = []
        for (n, line) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) {
            do { out.append(try decoder.decode(FrameOutcome.self, from: Data(line))) } catch {
                throw DatasetImportError(file.path, line: n + 1, "not a frame outcome (\(error))")
            }
        }
        return out
    }
}
