/// Renders the OPTIONS section of a command's help from its declarations: one entry per
/// option and flag in declaration order, the help text in a column, wrapped, followed by
/// "(required)" or "(default: …)" as declared, the described choices under their option
/// and a deprecated alias after the option it stands for.
enum OptionsHelp {
    /// Lines are wrapped to this many characters (the hand-written help's measure).
    static let width = 90
    /// A name and placeholder wider than this put their text on the next line.
    static let widestName = 28

    /// Stands for a space that `wrap` must not break at, so that "(default: 2)" is never
    /// split after its colon; it is a plain space again in the rendered help.
    private static let unbreakableSpace = "\u{1}"

    static func render(_ items: [Declarations.Item]) -> String {
        let entries = items.flatMap(entries)
        guard !entries.isEmpty else { return "" }
        let column = (entries.map(\.left.count).filter { $0 <= widestName }.max() ?? widestName) + 2
        var lines = ["OPTIONS:"]
        for entry in entries {
            var text = wrap(entry.text, width: width - column)
            if entry.left.count + 2 > column {
                lines.append(entry.left)
            } else {
                lines.append(pad(entry.left, column) + (text.isEmpty ? "" : text.removeFirst()))
            }
            lines += text.map { String(repeating: " ", count: column) + $0 }
            let described = entry.choices.filter { !$0.help.isEmpty }
            let wordWidth = (described.map(\.word.count).max() ?? 0) + 2
            for choice in described {
                let indent = column + 2
                var help = wrap(choice.help, width: width - indent - wordWidth)
                lines.append(String(repeating: " ", count: indent) + pad(choice.word + ":", wordWidth) + help.removeFirst())
                lines += help.map { String(repeating: " ", count: indent + wordWidth) + $0 }
            }
        }
        return lines.joined(separator: "\n").replacingOccurrences(of: unbreakableSpace, with: " ").replacingTrailingSpaces()
    }

    private struct Entry {
        var left: String
        var text: String
        var choices: [Choice] = []
    }

    private static func entries(_ item: Declarations.Item) -> [Entry] {
        switch item {
        case .option(let o) where !o.isHidden:
            let value = o.placeholder.isEmpty ? "" : " " + o.placeholder
            var text = o.help
            if o.isRequired { text += " (required)" }
            if let d = o.defaultText { text += " (default:" + unbreakableSpace + d + ")" }
            return [Entry(left: "  --" + o.name + value, text: text, choices: o.choices)]
                + o.aliases.map { Entry(left: "  --" + $0.name + value, text: "Deprecated alias of --\(o.name), \($0.note)") }
        case .flag(let f) where !f.isHidden:
            return [Entry(left: "  --" + f.name, text: f.help)]
        default:
            return []
        }
    }

    private static func pad(_ s: String, _ n: Int) -> String {
        s.count >= n ? s : s + String(repeating: " ", count: n - s.count)
    }

    /// `text` in lines of at most `width` characters, broken at spaces (a word longer than
    /// the line stands alone); a newline in `text` always breaks.
    static func wrap(_ text: String, width: Int) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph -> [String] in
            var lines: [String] = []
            var line = ""
            for word in paragraph.split(separator: " ") {
                if line.isEmpty {
                    line = String(word)
                } else if line.count + 1 + word.count <= width {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = String(word)
                }
            }
            return lines + [line]
        }
    }
}

private extension String {
    /// The text with every `target` replaced (no Foundation in this module).
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }

    /// The text without spaces at the ends of its lines (an option whose text is empty).
    func replacingTrailingSpaces() -> String {
        split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in String(line.reversed().drop { $0 == " " }.reversed()) }
            .joined(separator: "\n")
    }
}
