/// A header value with parameters, e.g. `multipart/form-data; boundary="abc"` or
/// `form-data; name="image"; filename="f.jpg"` (RFC 9110 §5.6.6, RFC 7578).
struct HeaderValue: Equatable {
    /// The part before the first `;`, lower-cased and trimmed (`multipart/form-data`).
    var value: String
    /// Parameters by lower-cased name; quoted values unquoted (backslash escapes resolved).
    var parameters: [String: String]

    /// Parses a header value; never fails: malformed parameters are skipped.
    init(_ raw: String) {
        var params: [String: String] = [:]
        let chars = Array(raw)
        var i = 0
        func skipSpaces() { while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 } }
        var head = ""
        while i < chars.count, chars[i] != ";" { head.append(chars[i]); i += 1 }
        value = head.trimmingSpaces.lowercased()
        while i < chars.count {
            i += 1                                   // past ';'
            skipSpaces()
            var name = ""
            while i < chars.count, chars[i] != "=", chars[i] != ";" { name.append(chars[i]); i += 1 }
            name = name.trimmingSpaces.lowercased()
            guard i < chars.count, chars[i] == "=" else { continue }
            i += 1
            skipSpaces()
            var v = ""
            if i < chars.count, chars[i] == "\"" {
                i += 1
                while i < chars.count, chars[i] != "\"" {
                    if chars[i] == "\\", i + 1 < chars.count { i += 1 }
                    v.append(chars[i]); i += 1
                }
                if i < chars.count { i += 1 }            // closing quote
                while i < chars.count, chars[i] != ";" { i += 1 }
            } else {
                while i < chars.count, chars[i] != ";" { v.append(chars[i]); i += 1 }
                v = v.trimmingSpaces
            }
            if !name.isEmpty, params[name] == nil { params[name] = v }
        }
        parameters = params
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
