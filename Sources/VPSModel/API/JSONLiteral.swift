import Foundation

/// JSON text for the hand-written JSON lines (the server's access log, `simulate`'s event
/// stream), where one fixed key order and no encoder allocation per line matter.
public enum JSONLiteral {
    /// `s` as a JSON string literal, quotes included (RFC 8259 escaping: quote, backslash
    /// and every control character).
    public static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
