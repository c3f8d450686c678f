import Foundation
import Testing
import Vision
import Baselines
import TestSupport

@Suite struct ImageDecodeTests {
    let image = try! SyntheticImages.texture(width: 160, height: 120, seed: 3)

    @Test func pngRoundTripsExactly() throws {
        let png = try SyntheticImages.encode(image, as: .png)
        let info = try GrayImage.probe(png)
        #expect(info == ImageInfo(width: 160, height: 120, format: .png))
        let decoded = try GrayImage(decoding: png)
        #expect(decoded == image)
    }

    @Test func jpegDecodesCloseToTheOriginal() throws {
        let jpg = try SyntheticImages.encode(image, as: .jpeg, quality: 95)
        #expect(try GrayImage.probe(jpg).format == .jpeg)
        let decoded = try GrayImage(decoding: jpg)
        #expect(decoded.width == 160 && decoded.height == 120)
        let meanAbs = zip(decoded.pixels, image.pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +) / image.pixels.count
        #expect(meanAbs < 6)
    }

    /// A CMYK JPEG (Adobe's inverted inks, as Photoshop and Pillow write them: 16×8, two
    /// flat halves) decodes to the grey levels OpenCV's imdecode gave it: 130 and 119.
    @Test func cmykJPEGDecodesAsOpenCVDid() throws {
        let cmyk = [UInt8](Data(base64Encoded: """
            /9j/7gAOQWRvYmUAZAAAAAAA/9sAQwACAQEBAQECAQEBAgICAgIEAwICAgIFBAQDBAYFBgYGBQYGBgcJCAYHCQcGBggLCAkKCgoKCgYICwwL\
            CgwJCgoK/8AAFAgACAAQBEMRAE0RAFkRAEsRAP/EAB8AAAEFAQEBAQEBAAAAAAAAAAABAgMEBQYHCAkKC//EALUQAAIBAwMCBAMFBQQEAAAB\
            fQECAwAEEQUSITFBBhNRYQcicRQygZGhCCNCscEVUtHwJDNicoIJChYXGBkaJSYnKCkqNDU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hp\
            anN0dXZ3eHl6g4SFhoeIiYqSk5SVlpeYmZqio6Slpqeoqaqys7S1tre4ubrCw8TFxsfIycrS09TV1tfY2drh4uPk5ebn6Onq8fLz9PX29/j5\
            +v/aAA4EQwBNAFkASwAAPwD9hK3K/Nuv1cr+Vev24r+jCvjev//Z
            """)!)
        let decoded = try GrayImage(decoding: cmyk)
        #expect(decoded.width == 16 && decoded.height == 8)
        for y in 0..<8 {
            #expect((0..<8).allSatisfy { decoded.pixels[y * 16 + $0] == 130 })
            #expect((8..<16).allSatisfy { decoded.pixels[y * 16 + $0] == 119 })
        }
    }

    func code(_ bytes: [UInt8], maxPixels: Int = GrayImage.defaultMaxPixels) -> VisionError.Code? {
        do {
            _ = try GrayImage(decoding: bytes, maxPixels: maxPixels)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func emptyAndForeignInputAreTyped() {
        #expect(code([]) == .emptyInput)
        #expect(code(Array("GIF89a this is not supported".utf8)) == .unsupportedFormat)
        #expect(code([0x42, 0x4D]) == .truncated)  // too short for any header
    }

    @Test func truncatedFilesAreTyped() throws {
        let jpg = try SyntheticImages.encode(image, as: .jpeg)
        let png = try SyntheticImages.encode(image, as: .png)
        for cut in [jpg.count / 2, jpg.count - 2, 10, 4] {
            #expect(code(Array(jpg.prefix(cut))) == .truncated, "JPEG cut at \(cut)")
        }
        for cut in [png.count / 2, png.count - 5, 30] {
            #expect(code(Array(png.prefix(cut))) == .truncated, "PNG cut at \(cut)")
        }
    }

    @Test func corruptFilesAreTyped() throws {
        var png = try SyntheticImages.encode(image, as: .png)
        // Damage the compressed pixel data: the zlib stream / CRC no longer check out.
        for i in stride(from: 60, to: min(png.count - 20, 400), by: 3) { png[i] ^= 0x5A }
        #expect(code(png) == .decodeFailed)
        // A JPEG whose first segment has an impossible length.
        var jpg = try SyntheticImages.encode(image, as: .jpeg)
        jpg[4] = 0; jpg[5] = 1
        #expect(code(jpg) == .decodeFailed)
        // PNG whose first chunk is not IHDR.
        var png2 = try SyntheticImages.encode(image, as: .png)
        png2[12] = UInt8(ascii: "X")
        #expect(code(png2) == .decodeFailed)
    }

    @Test func absurdSizeIsRefusedFromTheHeader() throws {
        // A valid-looking PNG header claiming 100000 x 100000 pixels, followed by IEND.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        png += Array("IHDR".utf8)
        let side: UInt32 = 100_000
        for _ in 0 ..< 2 { png += withUnsafeBytes(of: side.bigEndian) { Array($0) } }
        png += [8, 0, 0, 0, 0]  // depth, colour, compression, filter, interlace
        png += [0x8D, 0x39, 0x54, 0x14]  // the chunk's CRC (the probe checks every chunk's)
        png += [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        #expect(try GrayImage.probe(png).width == 100_000)
        #expect(code(png) == .tooLarge)
        // The same for a JPEG frame header (JPEG sizes stop at 65535: 65000 x 65000).
        let jpg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0xFD, 0xE8, 0xFD, 0xE8, 0x01, 0x01, 0x11, 0x00,
                            0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x00, 0xFF, 0xD9]
        #expect(try GrayImage.probe(jpg).height == 65000)
        #expect(code(jpg) == .tooLarge)
        // A caller's smaller budget applies too.
        let small = try SyntheticImages.encode(image, as: .png)
        #expect(code(small, maxPixels: 1000) == .tooLarge)
    }

    @Test func mutatedFilesNeverCrashAndFailTyped() throws {
        let small = try SyntheticImages.texture(width: 64, height: 48, seed: 8)
        var rng = SplitMix(seed: 99)
        var decoded = 0, failed = 0
        for format in [ImageInfo.Format.jpeg, .png] {
            let original = try SyntheticImages.encode(small, as: format)
            for _ in 0 ..< 150 {
                var bytes = original
                switch Int.random(in: 0 ..< 3, using: &rng) {
                case 0:  // flip a few random bytes
                    for _ in 0 ..< Int.random(in: 1 ... 8, using: &rng) {
                        bytes[Int.random(in: 0 ..< bytes.count, using: &rng)] = UInt8.random(in: 0 ... 255, using: &rng)
                    }
                case 1:  // cut anywhere
                    bytes = Array(bytes.prefix(Int.random(in: 0 ..< bytes.count, using: &rng)))
                default:  // splice in garbage
                    let at = Int.random(in: 0 ..< bytes.count, using: &rng)
                    bytes.insert(contentsOf: (0 ..< 16).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }, at: at)
                }
                do {
                    let img = try GrayImage(decoding: bytes, maxPixels: 1 << 20)
                    #expect(img.pixels.count == img.width * img.height)
                    decoded += 1
                } catch {
                    #expect(error.code != .internalError, "\(error)")
                    failed += 1
                }
            }
        }
        #expect(decoded + failed == 300)
        #expect(failed > 50)  // most mutations are caught, none crash
    }
}
