import Foundation

/// Escapes text for HTML and SVG.
func escape(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
}

/// A coordinate for SVG: one decimal, no exponent.
func svgNumber(_ v: Double) -> String {
    guard v.isFinite else { return "0" }
    let s = String(format: "%.1f", v)
    return s.hasSuffix(".0") ? String(s.dropLast(2)) : s
}
