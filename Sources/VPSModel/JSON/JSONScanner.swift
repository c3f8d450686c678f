/// A strict JSON (RFC 8259) scanner that walks a document once, a chunk at a time, and
/// builds nothing: it checks the syntax and hands a reader the parts it asks for (a
/// member's key, a value's bytes), so that the reader can decode each part on its own.
///
/// Why: `JSONDecoder` indexes every value of a document before it decodes any; for a
/// 50,000-frame `session.json` that index, with the file's bytes, took about 1.4 KB a
/// frame. The scanner holds one chunk, the bytes of the part it is handing out and a
/// stack of open containers, however long the document.
///
/// It is strict where Foundation's decoder is lenient, so that what is refused does not
/// depend on which fields a reader happens to decode: no trailing commas; strings hold no
/// raw control character, only the escapes RFC 8259 names, and well-formed UTF-8; numbers
/// follow RFC 8259's grammar (no `01`, `1.`, `.5` or `+1`); whitespace is space, tab, CR
/// and LF; nothing but whitespace follows the document. An escaped lone surrogate
/// (`"\uD800"`) fits the grammar and passes; decoding that string refuses it. Nesting is
/// bounded at `maxDepth` arrays and objects, as `JSONDecoder` bounds it, on a stack of the
/// scanner's own: no input recurses, so none can overflow the thread's stack.
package struct JSONScanner {
    /// Most arrays and objects open at once, the document's own included (`JSONDecoder`'s bound too).
    package static let maxDepth = 512

    private let source: any JSONByteSource
    private var chunk: [UInt8]
    /// Document offset of `chunk[0]`.
    private var chunkStart: Int
    private var position = 0, end = 0
    /// The part of a captured value that has left the chunk, and where the rest starts in it.
    private var captured: [UInt8] = []
    private var capturing = false, captureFrom = 0
    /// Containers `skipValue` has open: `{` or `[`.
    private var open: [UInt8] = []

    /// A scanner of `source` from `offset`, reading `chunkSize` bytes at a time.
    package init(_ source: any JSONByteSource, from offset: Int = 0, chunkSize: Int = 1 << 16) {
        precondition(chunkSize > 0, "a chunk holds at least one byte")
        self.source = source
        chunk = [UInt8](repeating: 0, count: chunkSize)
        chunkStart = offset
    }

    /// Document offset of the next byte.
    package var offset: Int { chunkStart + position }

    // MARK: Reading

    /// The next byte after whitespace, not consumed; nil at the end of the document.
    package mutating func peek() throws -> UInt8? {
        try skipWhitespace()
        return try current()
    }

    /// Consumes `byte` after whitespace, or throws.
    package mutating func take(_ byte: UInt8) throws {
        guard try peek() == byte else { throw try unexpected() }
        position += 1
    }

    /// Consumes `byte` after whitespace when it comes next.
    package mutating func takeIf(_ byte: UInt8) throws -> Bool {
        guard try peek() == byte else { return false }
        position += 1
        return true
    }

    /// Throws unless only whitespace is left.
    package mutating func expectEnd() throws {
        if try peek() != nil { throw try unexpected() }
    }

    /// Reads an object (after whitespace) enclosed by `depth` arrays and objects, calling
    /// `body` for each member with its key as written (quotes and escapes included) and
    /// the scanner at the member's value, which `body` must read.
    package mutating func members(depth: Int, _ body: (inout JSONScanner, [UInt8]) throws -> Void) throws {
        try enter(UInt8(ascii: "{"), depth: depth)
        if try takeIf(UInt8(ascii: "}")) { return }
        repeat {
            guard try peek() == UInt8(ascii: "\"") else { throw try unexpected() }
            let key = try captureBytes { try $0.skipString() }
            try take(UInt8(ascii: ":"))
            try body(&self, key)
        } while try takeIf(UInt8(ascii: ","))
        try take(UInt8(ascii: "}"))
    }

    /// Reads an array (after whitespace) enclosed by `depth` arrays and objects, calling
    /// `body` with the scanner at each element, which `body` must read.
    package mutating func elements(depth: Int, _ body: (inout JSONScanner) throws -> Void) throws {
        try enter(UInt8(ascii: "["), depth: depth)
        if try takeIf(UInt8(ascii: "]")) { return }
        repeat { try body(&self) } while try takeIf(UInt8(ascii: ","))
        try take(UInt8(ascii: "]"))
    }

    /// The bytes of the next value (after whitespace), enclosed by `depth` arrays and
    /// objects, its syntax checked.
    package mutating func value(depth: Int) throws -> [UInt8] {
        _ = try peek()
        return try captureBytes { try $0.skipValue(depth: depth) }
    }

    /// Skips the next value (after whitespace), enclosed by `depth` arrays and objects,
    /// checking its syntax.
    package mutating func skipValue(depth: Int) throws {
        open.removeAll(keepingCapacity: true)
        while true {
            guard let first = try peek() else { throw try unexpected() }
            switch first {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = first == UInt8(ascii: "{")
                try enter(first, depth: depth + open.count)
                if try takeIf(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) { break }
                open.append(first)
                if isObject { try skipKey() }
                continue
            case UInt8(ascii: "\""): try skipString()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
            case UInt8(ascii: "t"): try skipLiteral(Self.trueBytes)
            case UInt8(ascii: "f"): try skipLiteral(Self.falseBytes)
            case UInt8(ascii: "n"): try skipLiteral(Self.nullBytes)
            default: throw try unexpected()
            }
            // A value is complete: close what it completes, up to a container that goes on.
            while let container = open.last {
                let isObject = container == UInt8(ascii: "{")
                if try takeIf(UInt8(ascii: ",")) {
                    if isObject { try skipKey() }
                    break
                }
                try take(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                open.removeLast()
            }
            if open.isEmpty { return }
        }
    }

    // MARK: Tokens

    private static let trueBytes = Array("true".utf8), falseBytes = Array("false".utf8), nullBytes = Array("null".utf8)

    /// Consumes `bracket` (after whitespace) opening a container inside `depth` others.
    private mutating func enter(_ bracket: UInt8, depth: Int) throws {
        guard try peek() == bracket else { throw try unexpected() }
        guard depth < Self.maxDepth else {
            throw JSONSyntaxError(offset: offset, "more than \(Self.maxDepth) arrays and objects nested")
        }
        position += 1
    }

    /// A member's key and its colon.
    private mutating func skipKey() throws {
        guard try peek() == UInt8(ascii: "\"") else { throw try unexpected() }
        try skipString()
        try take(UInt8(ascii: ":"))
    }

    /// Skips a string, from its opening quote: escapes and UTF-8 are checked.
    private mutating func skipString() throws {
        position += 1
        while true {
            // Runs of plain ASCII, the common case, without a call per byte.
            while position < end {
                let b = chunk[position]
                if b == 0x22 || b == 0x5C || b < 0x20 || b >= 0x80 { break }
                position += 1
            }
            guard let b = try current() else { throw try unexpected() }
            switch b {
            case 0x22: position += 1; return
            case 0x5C: try skipEscape()
            case 0..<0x20: throw JSONSyntaxError(offset: offset, "unescaped control character \(Self.hex(b)) in a string")
            case 0x80...: try skipUTF8Sequence()
            default: position += 1
            }
        }
    }

    /// `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t` or `\u` and four hex digits.
    private mutating func skipEscape() throws {
        let start = offset
        position += 1
        guard let e = try current() else { throw try unexpected() }
        position += 1
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return
        case UInt8(ascii: "u"):
            for _ in 0..<4 {
                guard let h = try current(), Self.isHexDigit(h) else {
                    throw JSONSyntaxError(offset: start, "a \\u escape without four hex digits")
                }
                position += 1
            }
        default:
            throw JSONSyntaxError(offset: start, "invalid escape \(Self.describe(e)) after a backslash")
        }
    }

    /// One multi-byte UTF-8 character, well formed (Unicode's table 3-7: no overlong forms,
    /// no encoded surrogates, nothing past U+10FFFF).
    private mutating func skipUTF8Sequence() throws {
        let start = offset
        let lead = chunk[position]
        let continuation: Int, low: UInt8, high: UInt8
        switch lead {
        case 0xC2...0xDF: (continuation, low, high) = (1, 0x80, 0xBF)
        case 0xE0: (continuation, low, high) = (2, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (continuation, low, high) = (2, 0x80, 0xBF)
        case 0xED: (continuation, low, high) = (2, 0x80, 0x9F)
        case 0xF0: (continuation, low, high) = (3, 0x90, 0xBF)
        case 0xF1...0xF3: (continuation, low, high) = (3, 0x80, 0xBF)
        case 0xF4: (continuation, low, high) = (3, 0x80, 0x8F)
        default: throw JSONSyntaxError(offset: start, "byte \(Self.hex(lead)) is not UTF-8")
        }
        position += 1
        for i in 0..<continuation {
            guard let b = try current(), b >= (i == 0 ? low : 0x80), b <= (i == 0 ? high : 0xBF) else {
                throw JSONSyntaxError(offset: start, "byte \(Self.hex(lead)) starts no UTF-8 character")
            }
            position += 1
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func skipNumber() throws {
        if try current() == UInt8(ascii: "-") { position += 1 }
        guard let first = try current(), Self.isDigit(first) else { throw try unexpected() }
        position += 1
        if first == UInt8(ascii: "0") {
            if let b = try current(), Self.isDigit(b) { throw JSONSyntaxError(offset: offset - 1, "a number with a leading zero") }
        } else {
            try skipDigits(atLeastOne: false)
        }
        if try current() == UInt8(ascii: ".") {
            position += 1
            try skipDigits(atLeastOne: true)
        }
        if let b = try current(), b == UInt8(ascii: "e") || b == UInt8(ascii: "E") {
            position += 1
            if let sign = try current(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            try skipDigits(atLeastOne: true)
        }
    }

    private mutating func skipDigits(atLeastOne: Bool) throws {
        var any = false
        while let b = try current(), Self.isDigit(b) { position += 1; any = true }
        if atLeastOne, !any { throw try unexpected() }
    }

    private mutating func skipLiteral(_ word: [UInt8]) throws {
        for expected in word {
            guard try current() == expected else { throw try unexpected() }
            position += 1
        }
    }

    // MARK: Bytes

    /// The next byte, not consumed, reading the next chunk when this one is used up; nil at
    /// the end of the document.
    @inline(__always)
    private mutating func current() throws -> UInt8? {
        if position == end, try !refill() { return nil }
        return chunk[position]
    }

    private mutating func skipWhitespace() throws {
        repeat {
            while position < end {
                switch chunk[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        } while try refill()
    }

    /// Moves on to the next chunk, keeping the part of a captured value in this one; false at the end.
    private mutating func refill() throws -> Bool {
        if capturing {
            captured.append(contentsOf: chunk[captureFrom..<end])
            captureFrom = 0
        }
        chunkStart += end
        position = 0
        end = 0
        let source = self.source, start = chunkStart
        let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0, at: start) }
        end = max(0, min(n, chunk.count))
        return end > 0
    }

    /// The bytes `read` moves over.
    private mutating func captureBytes(_ read: (inout JSONScanner) throws -> Void) throws -> [UInt8] {
        captured.removeAll(keepingCapacity: true)
        capturing = true
        captureFrom = position
        defer { capturing = false }
        try read(&self)
        captured.append(contentsOf: chunk[captureFrom..<position])
        return captured
    }

    private mutating func unexpected() throws -> JSONSyntaxError {
        guard let b = try current() else { return JSONSyntaxError(offset: offset, "unexpected end of file") }
        return JSONSyntaxError(offset: offset, "unexpected \(Self.describe(b))")
    }

    private static func describe(_ b: UInt8) -> String {
        (0x21..<0x7F).contains(b) ? "character '\(Character(Unicode.Scalar(b)))'" : "byte \(hex(b))"
    }

    private static func hex(_ b: UInt8) -> String {
        "0x" + (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true)
    }

    private static func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        isDigit(b) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(b | 0x20)
    }
}

extension JSONScanner {
    /// The 1-based line and column (in characters) of byte `offset` of `source`: for
    /// messages, so read again only when there is an error to report.
    package static func lineAndColumn(of offset: Int, in source: any JSONByteSource) throws -> (line: Int, column: Int) {
        var line = 1, column = 1, at = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while at < offset {
            let start = at
            let n = min(try chunk.withUnsafeMutableBytes { try source.read(into: $0, at: start) }, offset - at)
            if n <= 0 { break }
            for b in chunk[0..<n] {
                if b == 0x0A {
                    line += 1; column = 1
                } else if b & 0xC0 != 0x80 {
                    column += 1
                }
            }
            at += n
        }
        return (line, column)
    }
}
