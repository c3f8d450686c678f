import Foundation

/// Escapes text for HTML and SVG.
func escape(_ s: String) -> String {
    // Most text (ids, numbers, file names) has nothing to escape: returned as it is, not
    // copied four times, since a report escapes a dozen cells per frame.
    guard s.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
                                   || $0 == UInt8(ascii: "\"") }) else { return s }
    return s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
}

/// A coordinate for SVG: one decimal, no exponent.
func svgNumber(_ v: Double) -> String {
    guard v.isFinite else { return "0" }
    let s = String(format: "%.1f", v)
    return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
}
