import Foundation
import Testing
import Baselines
import VPSModel
import Vision

/// Fuzz finding 1 (target `image`, docs/hardening.md): a JPEG with a second frame header
/// (SOF) of another size. libjpeg refuses such a file, but the two header readers each
/// accepted it, with different sizes: VPS's `ImageHeader` (what the server checks against
/// the intrinsics) took the first SOF, VisionCore's probe (what sizes the decode) the last.
@Suite struct TwoFrameHeaderJPEGTests {
    /// A real 16x16 JPEG with a copy of its SOF0 segment, saying 517x1, right after it.
    static func jpegWithTwoFrameHeaders() throws -> [UInt8] {
        let jpeg = try SyntheticImages.encode(try SyntheticImages.texture(width: 16, height: 16), as: .jpeg)
        guard let sof = (2..<jpeg.count - 1).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }) else {
            Issue.record("the encoder wrote no SOF0")
            return jpeg
        }
        let length = Int(jpeg[sof + 2]) << 8 | Int(jpeg[sof + 3])
        var second = Array(jpeg[sof..<(sof + 2 + length)])
        second[5] = 0; second[6] = 1            // height 1
        second[7] = 0x02; second[8] = 0x05      // width 517
        var out = jpeg
        out.insert(contentsOf: second, at: sof + 2 + length)
        return out
    }

    @Test func theHeaderReaderRefusesASecondFrameHeader() throws {
        let jpeg = try Self.jpegWithTwoFrameHeaders()
        #expect(ImageHeader.parse(Data(jpeg)) == nil)
    }

    @Test func theProbeAndTheDecoderRefuseASecondFrameHeader() throws {
        let jpeg = try Self.jpegWithTwoFrameHeaders()
        #expect(throws: VisionError.self) { try GrayImage.probe(jpeg) }
        #expect(throws: VisionError.self) { try GrayImage(decoding: jpeg) }
    }

    @Test func oneFrameHeaderStillReads() throws {
        let jpeg = try SyntheticImages.encode(try SyntheticImages.texture(width: 16, height: 16), as: .jpeg)
        #expect(ImageHeader.parse(Data(jpeg)) == ImageHeader(format: .jpeg, width: 16, height: 16))
        #expect(try GrayImage.probe(jpeg) == ImageInfo(width: 16, height: 16, format: .jpeg))
    }
}
