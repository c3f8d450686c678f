import Foundation
import Testing
import VPSModel

/// The scanner accepts RFC 8259 JSON and only that, whatever the chunk size, and refuses
/// the rest with an offset and a reason: never a trap, a hang or a deep recursion.
@Suite struct JSONScannerTests {
    /// Chunk sizes that put a chunk boundary inside every token of the documents below.
    static let chunkSizes = [1, 2, 3, 5, 7, 1 << 16]

    /// Scans `bytes` as one document: the syntax error, or nil when it is JSON.
    private func error(_ bytes: [UInt8], chunkSize: Int = 1 << 16) -> JSONSyntaxError? {
        var scanner = JSONScanner(Data(bytes), chunkSize: chunkSize)
        do {
            try scanner.skipValue(depth: 0)
            try scanner.expectEnd()
            return nil
        } catch let e as JSONSyntaxError {
            return e
        } catch {
            Issue.record("not a syntax error: \(error)")
            return nil
        }
    }

    private func error(_ text: String, chunkSize: Int = 1 << 16) -> JSONSyntaxError? {
        error(Array(text.utf8), chunkSize: chunkSize)
    }

    static let valid = [
        #"{}"#, #"[]"#, #"0"#, #"-0"#, #"-0.5e-3"#, #"12.25E+2"#, #"true"#, #"false"#, #"null"#,
        #""""#, #""a\"b\\c\/d\b\f\n\r\t\u00e9\uD83D\uDE00""#, "\"é 😀 \u{7F}\"",
        " \t\r\n{ \"a\" : [ 1 , 2.5 , { } , [ ] , \"x\" ] , \"b\" : { \"c\" : null } } \n",
        #"{"a":{"a":{"a":[[[[]]]]}},"":0,"\u0061":1}"#,
    ]

    @Test func acceptsRFC8259JSONAtEveryChunkSize() {
        for text in Self.valid {
            // Foundation agrees that these are JSON.
            #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil, "\(text)")
            for size in Self.chunkSizes {
                #expect(error(text, chunkSize: size) == nil, "\(text) at chunk size \(size)")
            }
        }
        // JSON by the grammar, refused by a decoder that reads them (as `JSONDecoder` does).
        #expect(error(#""\uD800""#) == nil)
        #expect(error("1e999999") == nil)
    }

    @Test(arguments: [
        // (document, offset of the error, what the reason says)
        (#"{"a":1,}"#, 7, "unexpected character '}'"),            // trailing comma (Foundation allows it)
        (#"[1,]"#, 3, "unexpected character ']'"),
        (#"[01]"#, 1, "leading zero"),
        (#"[1.]"#, 3, "unexpected character ']'"),
        (#"[.5]"#, 1, "unexpected character '.'"),
        (#"[+1]"#, 1, "unexpected character '+'"),
        (#"[-]"#, 2, "unexpected character ']'"),
        (#"[1e]"#, 3, "unexpected character ']'"),
        (#"[tru]"#, 4, "unexpected character ']'"),
        (#"[True]"#, 1, "unexpected character 'T'"),
        (#"[NaN]"#, 1, "unexpected character 'N'"),
        (#"["\x"]"#, 2, "invalid escape character 'x'"),
        (#"["\u12G4"]"#, 2, "four hex digits"),
        ("[\"a\u{01}\"]", 3, "unescaped control character 0x01"),
        (#"{'a':1}"#, 1, "unexpected character '''"),
        (#"{"a" 1}"#, 5, "unexpected character '1'"),
        (#"{1:2}"#, 1, "unexpected character '1'"),
        (#"[1 2]"#, 3, "unexpected character '2'"),
        (#"{} {}"#, 3, "unexpected character '{'"),
        ("[1]\u{0C}", 3, "unexpected byte 0x0C"),                  // form feed is not whitespace
        ("", 0, "unexpected end of file"),
        ("  ", 2, "unexpected end of file"),
        (#"{"a":"#, 5, "unexpected end of file"),
        (#"["abc"#, 5, "unexpected end of file"),
    ] as [(String, Int, String)])
    func refusesWithTheOffsetAndReason(_ text: String, _ offset: Int, _ reason: String) throws {
        for size in Self.chunkSizes {
            let e = try #require(error(text, chunkSize: size), "\(text) was accepted")
            #expect(e.offset == offset && e.reason.contains(reason), "\(text) at chunk size \(size): \(e)")
        }
    }

    @Test func refusesBytesThatAreNotUTF8() throws {
        let quote: UInt8 = 0x22
        for (bytes, name) in [([0xC3, 0x28], "a bad continuation"), ([0xC0, 0xAF], "an overlong slash"),
                              ([0xED, 0xA0, 0x80], "an encoded surrogate"), ([0xF4, 0x90, 0x80, 0x80], "past U+10FFFF"),
                              ([0x80], "a lone continuation"), ([0xFF], "0xFF"), ([0xE2, 0x82], "a cut character")]
            as [([UInt8], String)] {
            for size in Self.chunkSizes {
                let e = try #require(error([quote] + bytes + [quote], chunkSize: size), "\(name) was accepted")
                #expect(e.offset == 1 && e.reason.contains("UTF-8"), "\(name): \(e)")
            }
        }
        #expect(error([quote, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, quote], chunkSize: 1) == nil)   // € 😀
    }

    /// A cut file: every proper prefix of a document that is an object is refused.
    @Test func everyTruncationIsRefused() {
        let text = Array(#"{"a": [1, -2.5e+3, "x\u00e9\n", true, false, null, {"b": {}}], "c": "é"}"#.utf8)
        #expect(error(text) == nil)
        for n in 0..<text.count {
            #expect(error(Array(text[..<n]), chunkSize: 3) != nil, "the first \(n) bytes were accepted")
        }
    }

    @Test func nestingIsBoundedWithoutRecursion() throws {
        let limit = JSONScanner.maxDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(error(deepest) == nil)
        #expect(error(String(repeating: "{\"k\":", count: limit) + "1" + String(repeating: "}", count: limit)) == nil)
        let over = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        let e = try #require(error(over))
        #expect(e.offset == limit && e.reason.contains("more than 512"), "\(e)")
        // A million brackets: refused at the bound, no stack overflow.
        #expect(error(String(repeating: "[", count: 1_000_000))?.offset == limit)
        // Depth counts the containers around a value the caller reads.
        var scanner = JSONScanner(Data("[[]]".utf8))
        #expect(throws: JSONSyntaxError.self) { try scanner.skipValue(depth: limit - 1) }
    }

    @Test func hugeNumbersAndStringsAreJustLong() {
        let digits = "1" + String(repeating: "0", count: 200_000)
        #expect(error("[\(digits), -\(digits).\(digits)e-\(digits)]", chunkSize: 1000) == nil)
        #expect(error("\"" + String(repeating: "\\u00e9 ", count: 100_000) + "\"", chunkSize: 999) == nil)
    }

    /// A reader gets each member's key and each value's bytes exactly as written.
    @Test func membersAndValuesComeAsWritten() throws {
        let text = #"  { "a" : [1, {"x": "]"}] , "b\"c": "s" ,"d":{} }  "#
        for size in Self.chunkSizes {
            var scanner = JSONScanner(Data(text.utf8), chunkSize: size)
            var seen: [String] = []
            try scanner.members(depth: 0) { scanner, key in
                seen.append(String(decoding: key, as: UTF8.self))
                if key == Array(#""a""#.utf8) {
                    try scanner.elements(depth: 1) { scanner in
                        seen.append(String(decoding: try scanner.value(depth: 2), as: UTF8.self))
                    }
                } else {
                    seen.append(String(decoding: try scanner.value(depth: 1), as: UTF8.self))
                }
            }
            try scanner.expectEnd()
            #expect(seen == [#""a""#, "1", #"{"x": "]"}"#, #""b\"c""#, #""s""#, #""d""#, "{}"], "chunk size \(size)")
        }
    }

    @Test func offsetsBecomeLinesAndColumns() throws {
        let text = Data("{\n  \"é\": 1,\n  x\n}".utf8)
        let e = try #require(error(Array(text)))
        let at = try JSONScanner.lineAndColumn(of: e.offset, in: text)
        #expect(at.line == 3 && at.column == 3, "\(at)")
        let origin = try JSONScanner.lineAndColumn(of: 0, in: text)
        #expect(origin.line == 1 && origin.column == 1)
    }

    /// Bytes changed at random in a document: the scanner never traps, and what it accepts
    /// Foundation's (more lenient) parser accepts too.
    @Test func mutatedDocumentsAreRefusedOrJSON() {
        // No exponent, and none can be made: Foundation refuses a number past Double's range.
        let base = Array(#"{"frames": [{"id": "0001", "t": [1.5, -2.25, 0], "ok": true, "n": null, "s": "a\"\u00e9"}], "v": 1}"#.utf8)
        let alphabet = Array(#"{}[]:,"\ -+.0123456789tfnu"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xFF]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            var bytes = base
            for _ in 0...Int.random(in: 0...3, using: &rng) {
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[i] = alphabet.randomElement(using: &rng)!
                case 1: bytes.remove(at: i)
                default: bytes.insert(alphabet.randomElement(using: &rng)!, at: i)
                }
                if bytes.isEmpty { break }
            }
            if error(bytes, chunkSize: Int.random(in: 1...8, using: &rng)) == nil {
                #expect((try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) != nil,
                        "accepted: \(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }
}
