import Foundation

/// A script file for the simulator: a JSON array of `{"time": s, "action": {...}}`, or an
/// object with a `script` array (a `session.json` works).
///
/// Errors name the bad entry (`script.json: [3].action`) and quote it, times are checked
/// as session times (`SessionTime`), and the file's size and action count against
/// `ScriptLimits`, so a bad script is refused with a line the user can act on rather than a
/// decoder dump, a trap, or minutes of replay and gigabytes of memory.
public enum ScriptFile {
    /// Reads the script at `url`. Throws a `DatasetProblem`.
    public static func load(from url: URL) throws -> [ScriptAction] {
        let name = url.lastPathComponent
        let data = try DatasetJSON.read(url, maxBytes: ScriptLimits.maxFileBytes)
        return try decode(data, fileName: name)
    }

    /// Decodes script bytes; `fileName` names the file in errors.
    public static func decode(_ data: Data, fileName: String) throws -> [ScriptAction] {
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch {
            throw DatasetProblem(.malformedJSON, at: fileName, "not valid JSON")
        }
        let entries: [Any]
        let prefix: String
        if let array = json as? [Any] {
            entries = array; prefix = ""
        } else if let object = json as? [String: Any], let array = object["script"] as? [Any] {
            entries = array; prefix = "script"
        } else {
            throw DatasetProblem(.malformedJSON, at: fileName,
                                 "expected a JSON array of {\"time\", \"action\"} or an object with a \"script\" array")
        }
        if let p = ScriptLimits.problem(count: entries.count) {
            throw DatasetProblem(.scriptTooLong, at: prefix.isEmpty ? fileName : "\(fileName): \(prefix)", p)
        }
        var actions: [ScriptAction] = []
        for (i, entry) in entries.enumerated() {
            let at = "\(fileName): \(prefix)[\(i)]"
            let bytes = (try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys, .fragmentsAllowed])) ?? Data()
            let quoted = String(decoding: bytes.prefix(160), as: UTF8.self) + (bytes.count > 160 ? "…" : "")
            let action: ScriptAction
            do { action = try JSONDecoder().decode(ScriptAction.self, from: bytes) } catch let e as DecodingError {
                let p = DatasetJSON.problem(from: e, fileName: "")
                let field = p.location.hasPrefix(": ") ? "." + p.location.dropFirst(2) : ""
                throw DatasetProblem(.malformedJSON, at: at + field, "\(p.message) in \(quoted)")
            }
            if let p = SessionTime.problem(action.time) {
                throw DatasetProblem(.invalidTime, at: "\(at).time", "\(p) in \(quoted)")
            }
            actions.append(action)
        }
        return actions
    }
}
