import Testing
import VPSServer
import Support

@Suite struct MultipartFormDataTests {
    private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func boundaryFromContentType() throws {
        #expect(try MultipartFormData.boundary(contentType: "multipart/form-data; boundary=abc") == "abc")
        #expect(try MultipartFormData.boundary(contentType: "Multipart/Form-Data;boundary=\"a b;c\"") == "a b;c")
        #expect(try MultipartFormData.boundary(contentType: "multipart/form-data; charset=utf-8; BOUNDARY=x1") == "x1")
        #expect(throws: MultipartError.self) { try MultipartFormData.boundary(contentType: "multipart/form-data") }
        #expect(throws: MultipartError.self) {
            try MultipartFormData.boundary(contentType: "multipart/form-data; boundary=" + String(repeating: "x", count: 71))
        }
        do {
            _ = try MultipartFormData.boundary(contentType: "application/json")
            Issue.record("expected an error")
        } catch {
            guard case .unsupportedMediaType = error else { Issue.record("\(error)"); return }
        }
    }

    @Test func parsesPartsWithHeadersAndBinaryContent() throws {
        let binary: [UInt8] = [0, 13, 10, 45, 45, 0xFF, 13, 10, 13, 10]     // CRLF, "--", CRLFCRLF inside
        let body = bytes("preamble to ignore\r\n--B\r\nContent-Disposition: form-data; name=\"request\"\r\n"
                         + "Content-Type: application/json; charset=utf-8\r\n\r\n{\"a\":1}\r\n"
                         + "--B\r\ncontent-disposition: form-data; name=\"image\"; filename=\"f.png\"\r\n\r\n")
            + binary + bytes("\r\n--B--\r\nepilogue")
        let parts = try MultipartFormData.parse(body, boundary: "B")
        #expect(parts.count == 2)
        #expect(parts[0].name == "request")
        #expect(parts[0].contentType == "application/json")
        #expect(parts[0].body == bytes("{\"a\":1}"))
        #expect(parts[1].name == "image")
        #expect(parts[1].filename == "f.png")
        #expect(parts[1].contentType == nil)
        #expect(parts[1].body == binary)
    }

    @Test func emptyPartBodyAndTransportPadding() throws {
        let body = bytes("--B  \r\nContent-Disposition: form-data; name=\"e\"\r\n\r\n\r\n--B--")
        let parts = try MultipartFormData.parse(body, boundary: "B")
        #expect(parts.count == 1)
        #expect(parts[0].body.isEmpty)
    }

    @Test func boundaryTextNotAtALineStartIsContent() throws {
        let body = bytes("--B\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n--B is not at a line start\r\n--B--")
        let parts = try MultipartFormData.parse(body, boundary: "B")
        #expect(parts.first?.body == bytes("--B is not at a line start"))
        // At a line start it is a delimiter (RFC 2046 forbids it in content): "--Bx" is then
        // a delimiter followed by junk, and the framing is refused.
        let bad = bytes("--B\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv\r\n--Bx\r\n--B--")
        #expect(throws: MultipartError.self) { try MultipartFormData.parse(bad, boundary: "B") }
    }

    @Test(arguments: [
        ("", "does not contain the boundary"),
        ("--B\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nno end", "not terminated"),
        ("--B\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv\r\n--B", "closing boundary"),
        ("--B\r\nContent-Type: text/plain\r\n\r\nv\r\n--B--", "no Content-Disposition"),
        ("--B\r\nContent-Disposition: attachment; name=\"x\"\r\n\r\nv\r\n--B--", "form-data"),
        ("--B\r\nContent-Disposition: form-data\r\n\r\nv\r\n--B--", "form-data"),
        ("--B\r\nno colon here\r\n\r\nv\r\n--B--", "header line"),
        ("--B\r\nContent-Disposition: form-data; name=\"x\"", "end of headers"),
        ("--Bjunk\r\n", "CRLF"),
    ])
    func malformedBodiesAreNamed(body: String, words: String) {
        do {
            _ = try MultipartFormData.parse(Array(body.utf8), boundary: "B")
            Issue.record("expected an error for \(body.debugDescription)")
        } catch {
            guard case .malformed(let m) = error else { Issue.record("\(error)"); return }
            #expect(m.contains(words), "\(m)")
        }
    }

    @Test func tooManyPartsAndHugeHeadersAreRefused() {
        let many = String(repeating: "--B\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv\r\n", count: 20) + "--B--"
        #expect(throws: MultipartError.malformed("more than 16 parts")) {
            try MultipartFormData.parse(Array(many.utf8), boundary: "B")
        }
        let huge = "--B\r\nX-Pad: " + String(repeating: "p", count: 10_000) + "\r\n\r\nv\r\n--B--"
        #expect(throws: MultipartError.self) { try MultipartFormData.parse(Array(huge.utf8), boundary: "B") }
    }

    @Test func randomInputNeverTraps() {
        // Deterministic pseudo-random mutations of a valid body: any outcome but a crash.
        var rng = SplitMix64(seed: 42)
        let valid = bytes("--B\r\nContent-Disposition: form-data; name=\"request\"\r\n\r\n{}\r\n--B\r\n"
                          + "Content-Disposition: form-data; name=\"image\"\r\n\r\nxyz\r\n--B--\r\n")
        let alphabet = bytes("-B\r\n:;=\"x ")
        for _ in 0..<3000 {
            var b = valid
            for _ in 0..<Int(rng.next() % 6 + 1) {
                let i = Int(rng.next() % UInt64(b.count + 1))
                switch rng.next() % 3 {
                case 0 where i < b.count: b.remove(at: i)
                case 1: b.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: min(i, b.count))
                default: b = Array(b.prefix(i))
                }
            }
            _ = try? MultipartFormData.parse(b, boundary: "B")
        }
    }
}

