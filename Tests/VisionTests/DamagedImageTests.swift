import Foundation
import Testing
import Vision
import Baselines

/// Damaged image files are decode errors, never a blank image, and say nothing on stderr.
@Suite struct DamagedImageTests {
    let png = try! SyntheticImages.encode(try! SyntheticImages.texture(width: 96, height: 64, seed: 11), as: .png)

    /// Byte offset of the first chunk of `type` (its length field) in a PNG.
    private func chunk(_ type: String, in bytes: [UInt8]) -> (offset: Int, length: Int)? {
        var i = 8
        while i + 12 <= bytes.count {
            let length = bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[i + 4..<i + 8], as: UTF8.self) == type { return (i, length) }
            i += 12 + length
        }
        return nil
    }

    /// Runs `body` with file descriptor 2 sent to a file; returns what was written there.
    private func standardError(during body: () -> Void) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let fd = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        let saved = dup(2)
        fflush(nil)
        dup2(fd, 2)
        body()
        fflush(nil)
        dup2(saved, 2)
        close(saved); close(fd)
        return try String(contentsOf: file, encoding: .utf8)
    }

    private func decodeError(_ bytes: [UInt8]) -> VisionError.Code? {
        do {
            _ = try GrayImage(decoding: bytes)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func brokenCRCIsADecodeErrorAndLibpngStaysQuiet() throws {
        var bytes = png
        let idat = try #require(chunk("IDAT", in: bytes))
        bytes[idat.offset + 8 + idat.length] ^= 0xFF   // first byte of the IDAT CRC; pixel data intact
        var code: VisionError.Code?
        let printed = try standardError { code = decodeError(bytes) }
        #expect(code == .decodeFailed)
        #expect(!printed.contains("libpng"), "libpng printed: \(printed)")
    }

    @Test func damagedPixelDataWithAValidCRCIsADecodeError() throws {
        // The decoder fails inside the pixel data; the result must be that failure, not
        // whatever the output buffer held (it used to come back as a blank image).
        var bytes = png
        let idat = try #require(chunk("IDAT", in: bytes))
        let data = idat.offset + 8
        for i in stride(from: data + 2, to: data + idat.length, by: 2) { bytes[i] = 0xFF }
        let crc = crc32(Array(bytes[idat.offset + 4..<data + idat.length]))
        for k in 0..<4 { bytes[data + idat.length + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * k)) }
        var code: VisionError.Code?
        let printed = try standardError { code = decodeError(bytes) }
        #expect(code == .decodeFailed)
        // libpng's own error handler would print "libpng error: IDAT: invalid …" here.
        #expect(!printed.contains("libpng"), "libpng printed: \(printed)")
    }

    @Test func damagedJPEGDataSaysNothingOnStderr() throws {
        var jpg = try SyntheticImages.encode(try SyntheticImages.texture(width: 96, height: 64, seed: 12), as: .jpeg)
        // Overwrite the middle of the entropy-coded data (the end-of-image marker stays).
        for i in stride(from: jpg.count / 2, to: jpg.count / 2 + 40, by: 1) { jpg[i] = 0x00 }
        jpg[jpg.count / 2 + 41] = 0xFF; jpg[jpg.count / 2 + 42] = 0xD3   // a stray restart marker
        let printed = try standardError { _ = decodeError(jpg) }
        #expect(printed.isEmpty, "the JPEG decoder printed: \(printed)")
    }

    @Test func colourPNGsBecomeGrayAsOpenCVMakesThem() throws {
        // RGB (200, 100, 50): 0.299 R + 0.587 G + 0.114 B = 124.2.
        let rgb = RenderedImage(width: 8, height: 4, pixels: [UInt8]((0..<32).flatMap { _ in [200, 100, 50] as [UInt8] }))
        let decoded = try GrayImage(decoding: [UInt8](try ImageEncoding.png(rgb)))
        #expect(decoded.width == 8 && decoded.height == 4)
        #expect(decoded.pixels.allSatisfy { abs(Int($0) - 124) <= 1 }, "\(decoded.pixels.prefix(4))")
    }

    private func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }
}
