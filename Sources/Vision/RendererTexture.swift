import Foundation
import VisionCore

/// An RGB colour, 0…255 per channel.
public typealias RGBColor = SIMD3<UInt8>

/// One drawing operation of a procedural texture, in texture pixels (origin top-left,
/// x right, y down). Operations run in order; each blends over the canvas with `alpha`.
public enum TextureDrawOp: Sendable, Hashable {
    /// The whole canvas in one colour.
    case fill(RGBColor, alpha: Double = 1)
    /// Smooth value noise on a grid of `cell` pixels, mapped from `from` to `to`.
    case noise(cell: Double, from: RGBColor, to: RGBColor, alpha: Double, seed: UInt64)
    /// A rectangle `min`…`max` rotated by `angle` degrees about its centre; `thickness` nil = filled.
    case rect(min: SIMD2<Double>, max: SIMD2<Double>, angle: Double = 0, color: RGBColor,
              thickness: Int? = nil, alpha: Double = 1)
    /// An ellipse with half-axes `radii`, rotated by `angle` degrees.
    case ellipse(center: SIMD2<Double>, radii: SIMD2<Double>, angle: Double = 0, color: RGBColor,
                 thickness: Int? = nil, alpha: Double = 1)
    case line(from: SIMD2<Double>, to: SIMD2<Double>, color: RGBColor, thickness: Int, alpha: Double = 1)
    /// A filled polygon (`thickness` nil) or an outline, closed or open.
    case polygon(points: [SIMD2<Double>], color: RGBColor, thickness: Int? = nil, closed: Bool = true,
                 alpha: Double = 1)
    /// ASCII text with its baseline starting at `origin`; `font` is a Hershey font 0…7.
    case text(String, origin: SIMD2<Double>, scale: Double, font: Int = 0, color: RGBColor,
              thickness: Int = 1, alpha: Double = 1)
    /// A soft Gaussian blob of `sigma` pixels with peak opacity `alpha`.
    case blob(center: SIMD2<Double>, sigma: Double, color: RGBColor, alpha: Double)
    /// A linear gradient over a rectangle from `from` (left) to `to` (right), rotated by `angle`.
    case gradient(min: SIMD2<Double>, max: SIMD2<Double>, angle: Double = 0, from: RGBColor, to: RGBColor,
                  alpha: Double = 1)
}

/// A texture for the renderer: drawn from operations or loaded from an image, with its mip
/// pyramid. Immutable once made.
public final class RenderTexture: @unchecked Sendable {
    // @unchecked: the wrapped vc_texture is never mutated after creation, and VisionCore
    // documents concurrent reads as safe; the pointer is released only in deinit.
    let handle: OpaquePointer
    public let width: Int
    public let height: Int

    /// Draws `ops` on a black `width`×`height` canvas.
    public init(width: Int, height: Int, ops: [TextureDrawOp]) throws {
        var out: OpaquePointer?
        let status = Self.withCOps(ops) { cOps in
            vc_texture_create(Int32(clamping: width), Int32(clamping: height), cOps.baseAddress,
                              Int32(cOps.count), &out)
        }
        guard status == VC_OK, let out else { throw RenderError(status: Int(status.rawValue), operation: "texture create") }
        handle = out; self.width = width; self.height = height
    }

    /// Decodes a JPEG/PNG and resizes it to `width`×`height` (nil keeps the image's size).
    public init(imageData: Data, width: Int? = nil, height: Int? = nil) throws {
        var out: OpaquePointer?
        let status = imageData.withUnsafeBytes { raw in
            vc_texture_create_from_image(raw.bindMemory(to: UInt8.self).baseAddress, raw.count,
                                         Int32(clamping: width ?? 0), Int32(clamping: height ?? 0), &out)
        }
        guard status == VC_OK, let out else { throw RenderError(status: Int(status.rawValue), operation: "texture load") }
        var w: Int32 = 0, h: Int32 = 0
        vc_texture_size(out, &w, &h)
        handle = out; self.width = Int(w); self.height = Int(h)
    }

    deinit { vc_texture_destroy(handle) }

    /// The texture's pixels (mip level 0).
    public func image() -> RenderedImage {
        let stride = width * 3
        let pixels = [UInt8](unsafeUninitializedCapacity: stride * height) { buf, count in
            _ = vc_texture_read(handle, buf.baseAddress, Int32(stride))
            count = stride * height
        }
        return RenderedImage(width: width, height: height, pixels: pixels)
    }

    /// Runs `body` with C draw ops whose point and text buffers stay valid during the call.
    private static func withCOps<R>(_ ops: [TextureDrawOp], _ body: (UnsafeBufferPointer<vc_draw_op>) -> R) -> R {
        var owned: [UnsafeMutableRawPointer] = []
        defer { owned.forEach { free($0) } }
        let cOps = ops.map { op -> vc_draw_op in
            var c = vc_draw_op()
            c.alpha = 1
            c.thickness = -1
            func col(_ v: RGBColor) -> (UInt8, UInt8, UInt8) { (v.x, v.y, v.z) }
            switch op {
            case let .fill(color, alpha):
                c.kind = Int32(VC_DRAW_FILL.rawValue); c.color = col(color); c.alpha = alpha
            case let .noise(cell, from, to, alpha, seed):
                c.kind = Int32(VC_DRAW_NOISE.rawValue); c.size = cell; c.color = col(from); c.color2 = col(to)
                c.alpha = alpha; c.seed = seed
            case let .rect(lo, hi, angle, color, thickness, alpha):
                c.kind = Int32(VC_DRAW_RECT.rawValue); c.x0 = lo.x; c.y0 = lo.y; c.x1 = hi.x; c.y1 = hi.y
                c.angle_deg = angle; c.color = col(color); c.thickness = Int32(clamping: thickness ?? -1); c.alpha = alpha
            case let .ellipse(center, radii, angle, color, thickness, alpha):
                c.kind = Int32(VC_DRAW_ELLIPSE.rawValue); c.x0 = center.x; c.y0 = center.y; c.x1 = radii.x; c.y1 = radii.y
                c.angle_deg = angle; c.color = col(color); c.thickness = Int32(clamping: thickness ?? -1); c.alpha = alpha
            case let .line(from, to, color, thickness, alpha):
                c.kind = Int32(VC_DRAW_LINE.rawValue); c.x0 = from.x; c.y0 = from.y; c.x1 = to.x; c.y1 = to.y
                c.color = col(color); c.thickness = Int32(clamping: thickness); c.alpha = alpha
            case let .polygon(points, color, thickness, closed, alpha):
                c.kind = Int32(VC_DRAW_POLYGON.rawValue); c.color = col(color)
                c.thickness = Int32(clamping: thickness ?? -1); c.closed = closed ? 1 : 0; c.alpha = alpha
                let buf = malloc(max(1, points.count) * 2 * MemoryLayout<Double>.stride)!
                owned.append(buf)
                let d = buf.bindMemory(to: Double.self, capacity: points.count * 2)
                for (i, p) in points.enumerated() { d[2 * i] = p.x; d[2 * i + 1] = p.y }
                c.points = UnsafePointer(d); c.n_points = Int32(clamping: points.count)
            case let .text(text, origin, scale, font, color, thickness, alpha):
                c.kind = Int32(VC_DRAW_TEXT.rawValue); c.x0 = origin.x; c.y0 = origin.y; c.size = scale
                c.font = Int32(clamping: font); c.color = col(color); c.thickness = Int32(clamping: thickness); c.alpha = alpha
                let s = strdup(text)!
                owned.append(UnsafeMutableRawPointer(s))
                c.text = UnsafePointer(s)
            case let .blob(center, sigma, color, alpha):
                c.kind = Int32(VC_DRAW_BLOB.rawValue); c.x0 = center.x; c.y0 = center.y; c.size = sigma
                c.color = col(color); c.alpha = alpha
            case let .gradient(lo, hi, angle, from, to, alpha):
                c.kind = Int32(VC_DRAW_GRADIENT.rawValue); c.x0 = lo.x; c.y0 = lo.y; c.x1 = hi.x; c.y1 = hi.y
                c.angle_deg = angle; c.color = col(from); c.color2 = col(to); c.alpha = alpha
            }
            return c
        }
        return cOps.withUnsafeBufferPointer(body)
    }
}
