import Glibc

/// A small, strict `multipart/form-data` parser (RFC 7578 over RFC 2046 framing) for
/// request bodies that are already in memory.
///
/// ```swift
/// let boundary = try MultipartFormData.boundary(contentType: "multipart/form-data; boundary=xyz")
/// let parts = try MultipartFormData.parse(body, boundary: boundary)
/// let image = parts.first { $0.name == "image" }
/// ```
///
/// Every malformation is reported as a `MultipartError` whose message says what was wrong;
/// the parser never traps on any input.
public enum MultipartFormData {
    /// One part of the form.
    public struct Part: Sendable, Hashable {
        /// The `name` parameter of `Content-Disposition: form-data`.
        public var name: String
        /// The `filename` parameter, when present.
        public var filename: String?
        /// The part's `Content-Type` (lower-cased media type, parameters dropped), when present.
        public var contentType: String?
        /// All part headers by lower-cased name.
        public var headers: [String: String]
        public var body: [UInt8]
    }

    /// Limits that keep a hostile body from costing much.
    public static let maxHeaderBlockBytes = 8 * 1024

    /// The boundary of a `multipart/form-data` Content-Type value.
    /// - Throws: `.unsupportedMediaType` when it is another media type (HTTP 415), or
    ///   `.malformed` when the boundary parameter is missing or invalid (HTTP 400).
    public static func boundary(contentType: String) throws(MultipartError) -> String {
        let v = HeaderValue(contentType)
        guard v.value == "multipart/form-data" else {
            throw .unsupportedMediaType("expected Content-Type multipart/form-data, got '\(contentType.prefix(100))'")
        }
        guard let b = v.parameters["boundary"], !b.isEmpty else {
            throw .malformed("the multipart/form-data Content-Type has no boundary parameter")
        }
        guard b.utf8.count <= 70, !b.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else {
            throw .malformed("the multipart boundary must be 1 to 70 printable ASCII characters")
        }
        return b
    }

    /// Splits a body into its parts.
    /// - Parameters:
    ///   - maxParts: more parts than this is an error (a form here has two).
    public static func parse(_ body: [UInt8], boundary: String, maxParts: Int = 16) throws(MultipartError) -> [Part] {
        let delimiter = Array(("--" + boundary).utf8)
        let crlfDelimiter = [13, 10] + delimiter
        var pos: Int
        if body.starts(with: delimiter) {
            pos = 0
        } else if let i = find(crlfDelimiter, in: body, from: 0) {
            pos = i + 2                                  // a preamble precedes the first delimiter
        } else {
            throw .malformed("the body does not contain the boundary given in Content-Type")
        }
        var parts: [Part] = []
        while true {
            pos += delimiter.count
            // Close delimiter: "--boundary--"; anything after it is epilogue.
            if pos + 1 < body.count, body[pos] == 0x2D, body[pos + 1] == 0x2D { return parts }
            // Transport padding (RFC 2046 §5.1.1), then CRLF.
            while pos < body.count, body[pos] == 0x20 || body[pos] == 0x09 { pos += 1 }
            guard pos + 1 < body.count, body[pos] == 13, body[pos + 1] == 10 else {
                throw .malformed(pos >= body.count - 1 ? "the body ends without the closing boundary"
                                                         : "a boundary line is not followed by CRLF")
            }
            pos += 2
            guard parts.count < maxParts else { throw .malformed("more than \(maxParts) parts") }
            let headerEnd: Int                           // index of the CRLFCRLF ending the headers
            if body[pos...].starts(with: [13, 10]) {
                headerEnd = pos - 2                      // a part without headers
            } else if let e = find([13, 10, 13, 10], in: body, from: pos, limit: pos + maxHeaderBlockBytes) {
                headerEnd = e
            } else {
                throw .malformed("part \(parts.count + 1) has no end of headers within \(maxHeaderBlockBytes) bytes")
            }
            let headers = try parseHeaders(headerEnd > pos ? Array(body[pos..<headerEnd]) : [], part: parts.count + 1)
            let contentStart = headerEnd + 4
            guard let next = find(crlfDelimiter, in: body, from: contentStart) else {
                throw .malformed("part \(parts.count + 1) is not terminated by a boundary")
            }
            guard let disposition = headers["content-disposition"] else {
                throw .malformed("part \(parts.count + 1) has no Content-Disposition header")
            }
            let d = HeaderValue(disposition)
            guard d.value == "form-data", let name = d.parameters["name"] else {
                throw .malformed("part \(parts.count + 1) is not 'Content-Disposition: form-data' with a name")
            }
            parts.append(Part(name: name, filename: d.parameters["filename"],
                              contentType: headers["content-type"].map { HeaderValue($0).value },
                              headers: headers, body: Array(body[contentStart..<next])))
            pos = next + 2
        }
    }

    private static func parseHeaders(_ block: [UInt8], part: Int) throws(MultipartError) -> [String: String] {
        var headers: [String: String] = [:]
        guard !block.isEmpty else { return headers }
        for line in block.split(separator: 10, omittingEmptySubsequences: false) {
            var l = line
            if l.last == 13 { l = l.dropLast() }
            guard let colon = l.firstIndex(of: 0x3A), colon > l.startIndex else {
                throw .malformed("part \(part) has a header line without a name and ':'")
            }
            let name = String(decoding: l[l.startIndex..<colon], as: UTF8.self).trimmingSpaces.lowercased()
            let value = String(decoding: l[(colon + 1)...], as: UTF8.self).trimmingSpaces
            headers[name] = value
        }
        return headers
    }

    /// Index of the first occurrence of `needle` in `haystack` at or after `from`, looking
    /// only at matches that end by `limit` (or the end). The image part, tens of kilobytes,
    /// is searched for its closing boundary on every request: memchr jumps to each candidate
    /// first byte, memcmp checks the rest (memmem is a GNU extension Swift does not see).
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int, limit: Int = .max) -> Int? {
        let n = needle.count, end = min(haystack.count, limit)
        guard n > 0, from >= 0, end - from >= n else { return nil }
        return haystack.withUnsafeBytes { h -> Int? in
            needle.withUnsafeBytes { p -> Int? in
                let base = h.baseAddress!, first = Int32(p[0])
                var i = from
                while i <= end - n {
                    guard let hit = memchr(base + i, first, end - n + 1 - i) else { return nil }
                    let at = UnsafeRawPointer(hit) - base
                    if memcmp(base + at, p.baseAddress!, n) == 0 { return at }
                    i = at + 1
                }
                return nil
            }
        }
    }
}

/// Why a multipart body or its Content-Type was refused.
public enum MultipartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not `multipart/form-data` at all (HTTP 415).
    case unsupportedMediaType(String)
    /// `multipart/form-data`, but the framing is broken (HTTP 400).
    case malformed(String)

    public var description: String {
        switch self {
        case .unsupportedMediaType(let m), .malformed(let m): return m
        }
    }
}
