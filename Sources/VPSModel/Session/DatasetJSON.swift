import Foundation

/// Reading and writing the dataset JSON files with errors that name the bad field.
package enum DatasetJSON {
    private struct Versioned: Decodable { var version: Int }

    /// Stable bytes: sorted keys, so the same value always writes the same file.
    package static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return e
    }

    package static func write<T: Encodable>(_ value: T, to file: URL) throws {
        var data = try encoder().encode(value)
        data.append(0x0A)
        try data.write(to: file, options: .atomic)
    }

    /// Decodes `file`, first checking its `version` so a future format reports
    /// `unsupportedVersion` rather than a confusing field error.
    package static func decode<T: Decodable>(_ type: T.Type, from file: URL, supportedVersion: Int) throws -> T {
        try decode(type, from: read(file), fileName: file.lastPathComponent, supportedVersion: supportedVersion)
    }

    /// The bytes of a dataset file; only a regular file is opened (a FIFO would block).
    package static func read(_ file: URL, maxBytes: Int = .max) throws -> Data {
        do { return try RegularFile.read(file, maxBytes: maxBytes) } catch let e as RegularFileError {
            throw DatasetProblem(.unreadableFile, at: file.lastPathComponent, "\(e)")
        }
    }

    /// `userInfo` goes to the decoder (`SessionJSONReader` hands `RecordedSession` its frames so).
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data, fileName: String, supportedVersion: Int,
                                             userInfo: [CodingUserInfoKey: any Sendable] = [:]) throws -> T {
        let decoder = JSONDecoder()
        decoder.userInfo = userInfo
        if let v = try? decoder.decode(Versioned.self, from: data), v.version != supportedVersion {
            throw DatasetProblem(.unsupportedVersion, at: "\(fileName): version",
                                 "version \(v.version) is not supported (this build reads version \(supportedVersion))")
        }
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw problem(from: error, fileName: fileName)
        }
    }

    /// Turns a `DecodingError` into a problem located at its JSON path, e.g. `frames[3].pose.q`.
    package static func problem(from error: DecodingError, fileName: String) -> DatasetProblem {
        func path(_ keys: [any CodingKey]) -> String {
            var s = ""
            for k in keys {
                if let i = k.intValue, k.stringValue.hasPrefix("Index") || k.stringValue == "\(i)" {
                    s += "[\(i)]"
                } else {
                    s += s.isEmpty ? k.stringValue : "." + k.stringValue
                }
            }
            return s.isEmpty ? fileName : "\(fileName): \(s)"
        }
        switch error {
        case let .keyNotFound(key, ctx):
            return DatasetProblem(.malformedJSON, at: path(ctx.codingPath + [key]), "required field is missing")
        case let .typeMismatch(type, ctx):
            return DatasetProblem(.malformedJSON, at: path(ctx.codingPath), "expected \(describe(type)): \(ctx.debugDescription)")
        case let .valueNotFound(type, ctx):
            return DatasetProblem(.malformedJSON, at: path(ctx.codingPath), "expected \(describe(type)), found null")
        case let .dataCorrupted(ctx):
            let last = ctx.codingPath.last?.stringValue
            if last == "q", ctx.debugDescription.contains("unit length") {
                return DatasetProblem(.nonUnitQuaternion, at: path(ctx.codingPath), ctx.debugDescription)
            }
            var message = ctx.debugDescription
            if let underlying = ctx.underlyingError { message += " (\(underlying))" }
            return DatasetProblem(.malformedJSON, at: path(ctx.codingPath), message)
        @unknown default:
            return DatasetProblem(.malformedJSON, at: fileName, "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is UInt64.Type: return "a whole number"
        case is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default: return "\(type)"
        }
    }
}
