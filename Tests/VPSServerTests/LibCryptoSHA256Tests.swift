import Foundation
import Testing
import VPSServer

/// The libcrypto-backed SHA-256 against the FIPS 180-4 / NIST CSRC example vectors.
@Suite struct LibCryptoSHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func knownVectors(input: String, digest: String) {
        #expect(SHA256.hex(SHA256.hash(Array(input.utf8))) == digest)
    }

    @Test func oneMillionA() {
        #expect(SHA256.hex(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func incrementalEqualsOneShot() {
        let data = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        for split in [0, 1, 63, 64, 65, 500, 999] {
            var d = SHA256.Digest()
            d.update(data[..<split])
            d.update(data[split...])
            #expect(d.finalize() == SHA256.hash(data))
        }
    }

    @Test func fileDigestEqualsInMemoryDigest() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Larger than one 1 MiB read so the file is hashed in several pieces.
        let data = (0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
        try Data(data).write(to: URL(fileURLWithPath: path))
        #expect(try SHA256.hash(fileAt: path) == SHA256.hash(data))
        #expect(throws: (any Error).self) { try SHA256.hash(fileAt: path + ".missing") }
    }

    @Test func constantTimeEqualsComparesContentAndLength() {
        #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(constantTimeEquals([], []))
    }
}
