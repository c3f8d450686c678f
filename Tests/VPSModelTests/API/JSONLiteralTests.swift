import Foundation
import Testing
import VPSModel

@Suite struct JSONLiteralTests {
    /// Every string, control characters and non-ASCII included, reads back unchanged
    /// through a real JSON parser.
    @Test func roundTripsThroughJSONDecoder() throws {
        let samples = ["", "plain", "quote \" and backslash \\", "line\nreturn\rtab\t", "\u{0}\u{1}\u{1f}\u{7f}",
                       "é ü 東京 🚀", "/v1/localize?x=\"1\"", String((0..<32).map { Character(UnicodeScalar($0)!) })]
        for s in samples {
            let literal = JSONLiteral.string(s)
            #expect(literal.first == "\"" && literal.last == "\"")
            #expect(!literal.unicodeScalars.contains { $0.value < 0x20 }, "raw control character in \(literal)")
            #expect(try JSONDecoder().decode(String.self, from: Data(literal.utf8)) == s)
        }
        #expect(JSONLiteral.string("a\u{1}b") == #""a\u0001b""#)
    }
}
