import Foundation
import Vision
import VPSModel

/// Drawing recipes for the synthetic scene's textures: every surface a camera looks at
/// gets detail at several scales (plaster noise, colour blobs, graffiti strokes, shapes,
/// posters, text-like marks, fine specks), placed at random so no two walls and no two
/// parts of a wall look alike — feature matching needs distinctive, non-repetitive texture.
/// Deterministic for a seed.
public enum ProceduralTextures {
    /// Art drawn on top of a wall texture where the scene places an AR object.
    public struct Decal: Sendable, Hashable {
        public enum Kind: String, Sendable, Hashable { case graffiti, linkPoster }
        public var kind: Kind
        /// Rectangle in texture pixels.
        public var min: SIMD2<Double>
        public var max: SIMD2<Double>
        public var title: String

        public init(kind: Kind, min: SIMD2<Double>, max: SIMD2<Double>, title: String) {
            self.kind = kind; self.min = min; self.max = max; self.title = title
        }
    }

    /// Texture pixels per metre for each kind of plane (the street's surfaces have their
    /// own: `StreetTextures.Surface.pixelsPerMetre`).
    public static func pixelsPerMetre(_ kind: SceneDescription.Plane.Kind) -> Double {
        switch kind {
        case .wall: 256
        case .floor: 160
        case .ceiling: 112
        }
    }

    /// Drawing operations for a `width`×`height` texture of a plane of `kind` drawn at
    /// `pixelsPerMetre` (feature sizes are in metres, so a coarser texture shows the same art).
    public static func ops(kind: SceneDescription.Plane.Kind, width: Int, height: Int, pixelsPerMetre ppm: Double,
                           seed: UInt64, textureId: String, decals: [Decal] = []) -> [TextureDrawOp] {
        var rng = SeededRandom(seed: seed, stream: "texture/\(textureId)")
        var ops: [TextureDrawOp]
        if let surface = StreetTextures.Surface(textureId) {
            ops = StreetTextures.ops(surface, width: width, height: height, pixelsPerMetre: ppm, seed: seed,
                                     textureId: textureId, &rng)
            for d in decals { ops += decal(d, &rng) }
            return ops
        }
        switch (kind, SharedTexture(textureId)) {
        case (_, .poster?): ops = poster(width, height, ppm, &rng)
        case (_, .door?): ops = door(width, height, ppm, &rng)
        case (.floor, .tiles?): ops = tiles(width, height, ppm, &rng)
        case (.wall, _): ops = wall(width, height, ppm, &rng)
        case (.floor, _): ops = floor(width, height, ppm, &rng)
        case (.ceiling, _): ops = ceiling(width, height, ppm, &rng)
        }
        for d in decals { ops += decal(d, &rng) }
        return ops
    }

    // MARK: Surfaces

    static func wall(_ w: Int, _ h: Int, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        let (W, H, area) = extent(w, h, ppm)
        let hue = r.unit()
        let base = hsv(hue, r.uniform(0.15...0.45), r.uniform(0.55...0.85))
        var ops: [TextureDrawOp] = [.fill(base)]
        ops += plaster(base, ppm, &r)
        for _ in 0..<count(area * 0.9, &r) {   // large soft colour fields
            ops.append(.blob(center: point(W, H, &r), sigma: r.uniform(0.1...0.35) * ppm,
                             color: hsv(r.unit(), r.uniform(0.4...0.9), r.uniform(0.3...0.95)), alpha: r.uniform(0.3...0.7)))
        }
        for _ in 0..<count(area * 2.2, &r) { ops += stroke(W, H, ppm, &r) }
        for _ in 0..<count(area * 16, &r) { ops.append(shape(W, H, size: r.uniform(0.04...0.35) * ppm, &r)) }
        ops += posters(W, H, ppm, &r)
        // Few words: identical glyphs all over the scene would match each other.
        for _ in 0..<count(area * 1.2, &r) { ops.append(word(W, H, scale: r.uniform(0.5...1.6) * ppm / 256, &r)) }
        ops += specks(W, H, ppm, density: 15 * area, &r)
        return ops
    }

    static func floor(_ w: Int, _ h: Int, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        let (W, H, area) = extent(w, h, ppm)
        let base = hsv(r.uniform(0.04...0.12), r.uniform(0.3...0.6), r.uniform(0.35...0.6))
        var ops: [TextureDrawOp] = [.fill(base)]
        ops += plaster(base, ppm, &r)
        // Planks of uneven width with staggered joints: wood-like without repeating.
        var y = 0.0
        while y < H {
            let step = r.uniform(0.12...0.26) * ppm
            y += step
            ops.append(.line(from: SIMD2(0, y), to: SIMD2(W, y), color: shade(base, 0.45), thickness: 2, alpha: 0.8))
            var x = r.uniform(0...1.2) * ppm
            while x < W {
                ops.append(.line(from: SIMD2(x, y - step), to: SIMD2(x, y), color: shade(base, 0.5), thickness: 2, alpha: 0.8))
                x += r.uniform(0.6...1.8) * ppm
            }
        }
        for _ in 0..<count(area * 0.6, &r) {   // rugs and stains
            if r.chance(0.3) {
                let c = point(W, H, &r), s = SIMD2(r.uniform(0.4...1.2), r.uniform(0.3...0.8)) * ppm
                ops.append(.rect(min: c - s, max: c + s, angle: r.uniform(-20...20), color: hsv(r.unit(), 0.6, 0.6)))
                for _ in 0..<r.int(3...8) { ops.append(shape(W, H, size: r.uniform(0.05...0.3) * ppm, near: c, spread: s.x, &r)) }
            } else {
                ops.append(.blob(center: point(W, H, &r), sigma: r.uniform(0.08...0.3) * ppm, color: hsv(r.unit(), 0.5, 0.3),
                                 alpha: r.uniform(0.2...0.5)))
            }
        }
        for _ in 0..<count(area * 4, &r) { ops.append(shape(W, H, size: r.uniform(0.03...0.15) * ppm, &r)) }
        for _ in 0..<count(area * 0.3, &r) { ops.append(word(W, H, scale: r.uniform(0.4...1.0) * ppm / 256, &r)) }
        ops += specks(W, H, ppm, density: 30 * area, &r)
        return ops
    }

    static func ceiling(_ w: Int, _ h: Int, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        let (W, H, area) = extent(w, h, ppm)
        let base = hsv(r.unit(), r.uniform(0.05...0.2), r.uniform(0.7...0.9))
        var ops: [TextureDrawOp] = [.fill(base)]
        ops += plaster(base, ppm, &r)
        // Panels of uneven sizes, lamps, vents.
        var x = 0.0
        while x < W {
            x += r.uniform(0.5...1.1) * ppm
            ops.append(.line(from: SIMD2(x, 0), to: SIMD2(x, H), color: shade(base, 0.6), thickness: 3))
        }
        var y = 0.0
        while y < H {
            y += r.uniform(0.5...1.1) * ppm
            ops.append(.line(from: SIMD2(0, y), to: SIMD2(W, y), color: shade(base, 0.6), thickness: 3))
        }
        for _ in 0..<count(area * 0.5, &r) {
            let c = point(W, H, &r)
            ops.append(.ellipse(center: c, radii: SIMD2(0.25, 0.12) * ppm, angle: r.uniform(0...180),
                                color: RGBColor(250, 250, 235)))
            ops.append(.ellipse(center: c, radii: SIMD2(0.25, 0.12) * ppm, color: shade(base, 0.3), thickness: 2))
        }
        for _ in 0..<count(area * 6, &r) { ops.append(shape(W, H, size: r.uniform(0.04...0.25) * ppm, &r)) }
        for _ in 0..<count(area * 1.5, &r) { ops += stroke(W, H, ppm, &r) }
        ops += specks(W, H, ppm, density: 25 * area, &r)
        return ops
    }

    /// What a shared texture id (`SceneLayout.sharedTexturePrefix`) shows beyond its
    /// plane's kind: one of the posters or the door hung throughout a building, or the tiles
    /// of its corridors and halls. Room floors and all ceilings keep their kind's recipe.
    enum SharedTexture {
        case poster, door, tiles

        init?(_ id: String) {
            guard id.hasPrefix(SceneLayout.sharedTexturePrefix) else { return nil }
            let name = id.dropFirst(SceneLayout.sharedTexturePrefix.count)
            if name.hasPrefix(ScenePlanner.posterTexture) { self = .poster }
            else if name.hasPrefix(ScenePlanner.doorTexture) { self = .door }
            else if name.hasPrefix("corridor") || name.hasPrefix("hall") || name.hasPrefix("doorway") { self = .tiles }
            else { return nil }
        }
    }

    /// Square tiles of about 0.5 m with grout lines, each a little lighter or darker, and
    /// some scuffs: the same texture in every corridor of a building.
    static func tiles(_ w: Int, _ h: Int, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        let (W, H, area) = extent(w, h, ppm)
        let base = hsv(r.unit(), r.uniform(0.05...0.25), r.uniform(0.55...0.8))
        var ops: [TextureDrawOp] = [.fill(base)]
        let tile = 0.5 * ppm
        var y = 0.0
        while y < H {
            var x = 0.0
            while x < W {
                ops.append(.rect(min: SIMD2(x, y), max: SIMD2(x + tile, y + tile), color: shade(base, r.uniform(0.85...1.12))))
                x += tile
            }
            y += tile
        }
        ops += plaster(base, ppm, &r).map {
            if case let .noise(cell, from, to, _, seed) = $0 { return .noise(cell: cell, from: from, to: to, alpha: 0.2, seed: seed) }
            return $0
        }
        var gx = 0.0
        while gx <= W { ops.append(.line(from: SIMD2(gx, 0), to: SIMD2(gx, H), color: shade(base, 0.55), thickness: 2)); gx += tile }
        var gy = 0.0
        while gy <= H { ops.append(.line(from: SIMD2(0, gy), to: SIMD2(W, gy), color: shade(base, 0.55), thickness: 2)); gy += tile }
        for _ in 0..<count(area * 2, &r) { ops.append(shape(W, H, size: r.uniform(0.02...0.08) * ppm, &r)) }
        ops += specks(W, H, ppm, density: 20 * area, &r)
        return ops
    }

    /// A printed poster filling the texture: a gradient, shapes, a title and lines of text.
    static func poster(_ w: Int, _ h: Int, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        let W = Double(w), H = Double(h)
        let centre = SIMD2(W, H) / 2
        var ops: [TextureDrawOp] = [.fill(RGBColor(25, 22, 20)),
                                    .gradient(min: SIMD2(6, 6), max: SIMD2(W - 6, H - 6), angle: r.uniform(-90...90),
                                              from: hsv(r.unit(), r.uniform(0.3...0.9), r.uniform(0.4...0.95)),
                                              to: hsv(r.unit(), 0.7, 0.8))]
        for _ in 0..<r.int(8...14) {
            ops.append(shape(W, H, size: r.uniform(0.05...0.3) * W, near: centre, spread: W * 0.35, &r))
        }
        let scale = W / 260
        ops.append(.text(randomWord(&r, upper: true), origin: SIMD2(10, 40 * scale + 8), scale: scale * 1.3,
                         font: r.pick([0, 2, 3, 4]), color: RGBColor(255, 255, 255), thickness: max(1, Int(scale * 3))))
        var y = H * 0.72
        while y < H - 8 {
            ops.append(.text(randomWord(&r, upper: false), origin: SIMD2(10 + r.uniform(0...W * 0.25), y),
                             scale: scale * r.uniform(0.45...0.7), font: r.pick([0, 1, 2, 6]), color: RGBColor(15, 15, 15)))
            y += r.uniform(24...40) * scale
        }
        return ops
    }

    /// A panelled door with a frame, a handle and a small sign.
    static func door(_ w: Int, _ h: Int, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        let W = Double(w), H = Double(h)
        let wood = hsv(r.uniform(0.05...0.1), r.uniform(0.4...0.6), r.uniform(0.45...0.65))
        var ops: [TextureDrawOp] = [.fill(RGBColor(60, 55, 50))]
        let f = 0.05 * ppm
        ops.append(.rect(min: SIMD2(f, f), max: SIMD2(W - f, H), color: wood))
        ops += plaster(wood, ppm, &r)
        for (y0, y1) in [(0.12, 0.45), (0.55, 0.93)] {
            ops.append(.rect(min: SIMD2(0.2 * W, y0 * H), max: SIMD2(0.8 * W, y1 * H), color: shade(wood, 0.7), thickness: 3))
        }
        ops.append(.ellipse(center: SIMD2(0.85 * W, 0.52 * H), radii: SIMD2(0.03, 0.03) * ppm, color: RGBColor(200, 200, 190)))
        ops.append(.rect(min: SIMD2(0.3 * W, 0.47 * H), max: SIMD2(0.7 * W, 0.53 * H), color: RGBColor(235, 235, 225)))
        ops.append(.text(randomWord(&r, upper: true), origin: SIMD2(0.32 * W, 0.515 * H), scale: 0.0016 * ppm,
                         font: 0, color: RGBColor(20, 20, 20)))
        ops += specks(W, H, ppm, density: 10 * W * H / (ppm * ppm), &r)
        return ops
    }

    // MARK: Elements

    /// Plaster-like value noise at three scales around the base colour.
    static func plaster(_ base: RGBColor, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        [.noise(cell: 0.7 * ppm, from: shade(base, 0.7), to: shade(base, 1.25), alpha: 0.6, seed: r.next()),
         .noise(cell: 0.12 * ppm, from: shade(base, 0.8), to: shade(base, 1.2), alpha: 0.35, seed: r.next()),
         .noise(cell: 0.025 * ppm, from: shade(base, 0.85), to: shade(base, 1.15), alpha: 0.3, seed: r.next())]
    }

    /// A graffiti-like stroke: a smooth random curve, often with a dark outline.
    static func stroke(_ W: Double, _ H: Double, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        var p = point(W, H, &r)
        var heading = r.uniform(0...(2 * .pi))
        var points = [p]
        let step = r.uniform(0.04...0.12) * ppm
        for _ in 0..<r.int(6...16) {
            heading += r.uniform(-0.8...0.8)
            p += SIMD2(cos(heading), sin(heading)) * step
            points.append(p)
        }
        let thickness = r.int(2...12)
        let color = hsv(r.unit(), r.uniform(0.6...1), r.uniform(0.5...1))
        var ops: [TextureDrawOp] = []
        if r.chance(0.5) {
            ops.append(.polygon(points: points, color: RGBColor(20, 20, 25), thickness: thickness + 4, closed: false))
        }
        ops.append(.polygon(points: points, color: color, thickness: thickness, closed: false))
        return ops
    }

    /// A random shape: disc, ring, rectangle, triangle, star or cross.
    static func shape(_ W: Double, _ H: Double, size: Double, near: SIMD2<Double>? = nil, spread: Double = 0,
                      _ r: inout SeededRandom) -> TextureDrawOp {
        let c = near.map { $0 + SIMD2(r.uniform(-1...1), r.uniform(-1...1)) * spread } ?? point(W, H, &r)
        let color = hsv(r.unit(), r.uniform(0.2...1), r.uniform(0.1...1))
        let thickness: Int? = r.chance(0.35) ? r.int(1...4) : nil
        switch r.int(0...5) {
        case 0:
            return .ellipse(center: c, radii: SIMD2(size, size * r.uniform(0.4...1)) / 2, angle: r.uniform(0...180),
                            color: color, thickness: thickness)
        case 1:
            return .rect(min: c - SIMD2(size, size * r.uniform(0.3...1)) / 2, max: c + SIMD2(size, size * r.uniform(0.3...1)) / 2,
                         angle: r.uniform(-45...45), color: color, thickness: thickness)
        case 2, 3:
            let n = r.chance(0.5) ? 3 : r.int(5...7)
            let star = r.chance(0.5)
            let rot = r.uniform(0...(2 * .pi))
            let pts = (0..<(star ? 2 * n : n)).map { i -> SIMD2<Double> in
                let a = rot + Double(i) * 2 * .pi / Double(star ? 2 * n : n)
                let rad = size / 2 * (star && i % 2 == 1 ? 0.45 : 1) * r.uniform(0.8...1.1)
                return c + SIMD2(cos(a), sin(a)) * rad
            }
            return .polygon(points: pts, color: color, thickness: thickness)
        case 4:
            let a = r.uniform(0...(2 * .pi)), d = SIMD2(cos(a), sin(a)) * size / 2
            return .line(from: c - d, to: c + d, color: color, thickness: r.int(1...5))
        default:
            let pts = (0..<r.int(4...6)).map { _ in c + SIMD2(r.uniform(-0.5...0.5), r.uniform(-0.5...0.5)) * size }
            return .polygon(points: pts, color: color, thickness: r.int(1...3), closed: r.chance(0.5))
        }
    }

    /// A random word in one of OpenCV's Hershey fonts.
    static func word(_ W: Double, _ H: Double, scale: Double, _ r: inout SeededRandom) -> TextureDrawOp {
        let color = hsv(r.unit(), r.uniform(0...0.9), r.uniform(0...0.6))
        return .text(randomWord(&r, upper: r.chance(0.4)), origin: point(W, H, &r), scale: scale,
                     font: r.pick([0, 1, 2, 3, 4, 6, 7]), color: color, thickness: r.int(1...2))
    }

    /// Fine specks, dots and ticks: dense corner-like detail at the scale of a few pixels.
    static func specks(_ W: Double, _ H: Double, _ ppm: Double, density: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        (0..<Int(density)).map { _ in
            let c = point(W, H, &r)
            let color = r.chance(0.5) ? RGBColor(UInt8(r.int(0...60)), UInt8(r.int(0...60)), UInt8(r.int(0...60)))
                                      : hsv(r.unit(), r.uniform(0.3...1), r.uniform(0.6...1))
            let s = r.uniform(0.006...0.02) * ppm
            switch r.int(0...2) {
            case 0: return .ellipse(center: c, radii: SIMD2(s, s * r.uniform(0.5...1)), color: color)
            case 1: return .line(from: c, to: c + SIMD2(r.uniform(-2...2), r.uniform(-2...2)) * s, color: color, thickness: r.int(1...2))
            default: return .rect(min: c - SIMD2(s, s), max: c + SIMD2(s, s), angle: r.uniform(0...90), color: color)
            }
        }
    }

    /// Posters at eye height: framed rectangles with a gradient, shapes, a title and lines of text.
    static func posters(_ W: Double, _ H: Double, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        var ops: [TextureDrawOp] = []
        let n = Int(W / ppm / 1.6)
        var placed: [(SIMD2<Double>, SIMD2<Double>)] = []
        for _ in 0..<n {
            let size = SIMD2(r.uniform(0.45...1.0), 0) * ppm
            let half = SIMD2(size.x, size.x * r.uniform(1.1...1.5)) / 2
            var centre = SIMD2<Double>.zero
            var ok = false
            for _ in 0..<10 {
                centre = SIMD2(r.uniform(half.x...(max(half.x, W - half.x))),
                               H - r.uniform(1.1...2.0) * ppm)
                ok = !placed.contains { abs($0.0.x - centre.x) < $0.1.x + half.x + 10 && abs($0.0.y - centre.y) < $0.1.y + half.y + 10 }
                if ok { break }
            }
            guard ok else { continue }
            placed.append((centre, half))
            let lo = centre - half, hi = centre + half
            let bg = hsv(r.unit(), r.uniform(0.3...0.9), r.uniform(0.4...0.95))
            ops.append(.rect(min: lo - 6, max: hi + 6, color: RGBColor(25, 22, 20)))
            ops.append(.gradient(min: lo, max: hi, angle: r.uniform(-90...90), from: bg, to: hsv(r.unit(), 0.7, 0.8)))
            for _ in 0..<r.int(4...10) {
                ops.append(shape(W, H, size: r.uniform(0.08...0.5) * half.x * 2, near: centre, spread: half.x * 0.6, &r))
            }
            let scale = half.x * 2 / 260
            ops.append(.text(randomWord(&r, upper: true), origin: SIMD2(lo.x + 10, lo.y + 40 * scale + 8), scale: scale * 1.3,
                             font: r.pick([0, 2, 3, 4]), color: RGBColor(255, 255, 255), thickness: max(1, Int(scale * 3))))
            var y = hi.y - half.y * 0.3
            while y < hi.y - 8 {
                ops.append(.text(randomWord(&r, upper: false), origin: SIMD2(lo.x + 10 + r.uniform(0...half.x * 0.5), y),
                                 scale: scale * r.uniform(0.45...0.7), font: r.pick([0, 1, 2, 6]), color: RGBColor(15, 15, 15)))
                y += r.uniform(24...40) * scale
            }
        }
        return ops
    }

    /// Art where the scene's AR objects are: a graffiti piece or a "link" poster.
    static func decal(_ d: Decal, _ r: inout SeededRandom) -> [TextureDrawOp] {
        let c = (d.min + d.max) / 2, half = (d.max - d.min) / 2
        var ops: [TextureDrawOp] = []
        switch d.kind {
        case .graffiti:
            ops.append(.blob(center: c, sigma: half.x * 0.6, color: hsv(r.unit(), 0.9, 0.9), alpha: 0.8))
            for _ in 0..<14 {
                var p = c + SIMD2(r.uniform(-0.8...0.8) * half.x, r.uniform(-0.6...0.6) * half.y)
                var points = [p]
                var heading = r.uniform(0...(2 * .pi))
                for _ in 0..<10 {
                    heading += r.uniform(-0.9...0.9)
                    p += SIMD2(cos(heading), sin(heading)) * half.x * 0.12
                    points.append(p)
                }
                let t = r.int(6...14)
                ops.append(.polygon(points: points, color: RGBColor(10, 10, 10), thickness: t + 6, closed: false))
                ops.append(.polygon(points: points, color: hsv(r.unit(), 1, 1), thickness: t, closed: false))
            }
            let scale = half.x / 120
            ops.append(.text(d.title, origin: SIMD2(d.min.x + half.x * 0.1, c.y + 15 * scale), scale: scale,
                             font: 3, color: RGBColor(255, 255, 255), thickness: max(2, Int(scale * 4))))
        case .linkPoster:
            ops.append(.rect(min: d.min - 8, max: d.max + 8, color: RGBColor(10, 10, 10)))
            ops.append(.rect(min: d.min, max: d.max, color: RGBColor(245, 245, 240)))
            // A QR-like block code: random cells, drawn from this decal's own stream.
            let cells = 9, side = min(half.x, half.y) * 1.1 / Double(cells)
            let origin = SIMD2(c.x - side * Double(cells) / 2, d.min.y + half.y * 0.15)
            for i in 0..<cells { for j in 0..<cells where r.chance(0.5) || (i < 3 && j < 3) {
                let p = origin + SIMD2(Double(i), Double(j)) * side
                ops.append(.rect(min: p, max: p + side, color: RGBColor(0, 0, 0)))
            } }
            let scale = half.x / 170
            ops.append(.text(d.title, origin: SIMD2(d.min.x + 12, d.max.y - half.y * 0.2), scale: scale, font: 0,
                             color: RGBColor(200, 30, 40), thickness: max(1, Int(scale * 2.5))))
        }
        return ops
    }

    // MARK: Helpers

    /// A texture's size in pixels, and the area it covers (m²) at `ppm` pixels per metre.
    static func extent(_ w: Int, _ h: Int, _ ppm: Double) -> (W: Double, H: Double, area: Double) {
        let W = Double(w), H = Double(h)
        return (W, H, W * H / (ppm * ppm))
    }

    static func count(_ expected: Double, _ r: inout SeededRandom) -> Int {
        max(0, Int((expected * r.uniform(0.8...1.2)).rounded()))
    }

    static func point(_ W: Double, _ H: Double, _ r: inout SeededRandom) -> SIMD2<Double> {
        SIMD2(r.uniform(0...W), r.uniform(0...H))
    }

    static func randomWord(_ r: inout SeededRandom, upper: Bool) -> String {
        // Random letters with vowel/consonant rhythm: words practically never repeat.
        let consonants = Array("bcdfghjklmnpqrstvwxz"), vowels = Array("aeiouy")
        var w = ""
        for i in 0..<r.int(4...8) { w.append(i % 2 == 0 ? r.pick(consonants) : r.pick(vowels)) }
        if r.chance(0.25) { w += String(r.int(10...999)) }
        return upper ? w.uppercased() : w
    }

    static func hsv(_ h: Double, _ s: Double, _ v: Double) -> RGBColor {
        let hh = (h - h.rounded(.down)) * 6, i = Int(hh) % 6, f = hh - Double(Int(hh))
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let (r, g, b): (Double, Double, Double) = switch i {
        case 0: (v, t, p)
        case 1: (q, v, p)
        case 2: (p, v, t)
        case 3: (p, q, v)
        case 4: (t, p, v)
        default: (v, p, q)
        }
        return RGBColor(UInt8(min(255, r * 255)), UInt8(min(255, g * 255)), UInt8(min(255, b * 255)))
    }

    static func shade(_ c: RGBColor, _ k: Double) -> RGBColor {
        RGBColor(UInt8(min(255, Double(c.x) * k)), UInt8(min(255, Double(c.y) * k)), UInt8(min(255, Double(c.z) * k)))
    }
}
