import Foundation
import VPSModel

/// Reads back the per-frame outcomes of a run folder written by `arcloud localize`
/// (`results.jsonl`, one `FrameOutcome` per line).
public enum RunResults {
    /// The outcomes in `folder` (a run folder, or its `results.jsonl`). Errors name the
    /// file and the line.
    public static func load(from folder: URL) throws -> [FrameOutcome] {
        let file = runFile(BatchReport.File.results, of: folder)
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

    /// The run's `summary.json` in `folder` (a run folder, or its `results.jsonl`), or nil
    /// when the folder has none. Its first threshold is the run's primary one: in metres on a
    /// metric map, a share of the scene scale on a map in unknown units.
    public static func summary(in folder: URL) throws -> AccuracySummary? {
        let file = runFile(BatchReport.File.summary, of: folder)
        guard FileKind(atPath: file.path) != .missing else { return nil }
        let data: Data
        do { data = try RegularFile.read(file) } catch let e as RegularFileError {
            throw DatasetImportError(e.path, e.problem)
        }
        do { return try JSONDecoder().decode(AccuracySummary.self, from: data) } catch {
            throw DatasetImportError(file.path, "not the summary.json of `arcloud localize` (\(error))")
        }
    }

    /// `name` in the run folder `folder` names, which may be given as its `results.jsonl`.
    private static func runFile(_ name: String, of folder: URL) -> URL {
        let dir = folder.lastPathComponent == BatchReport.File.results ? folder.deletingLastPathComponent() : folder
        return dir.appendingPathComponent(name)
    }
}
