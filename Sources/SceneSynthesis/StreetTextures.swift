import Foundation
import Vision
import VPSModel

/// Drawing recipes for the street's surfaces (`StreetLayout`): facades with a grid of
/// windows over a ground floor of shop fronts, blank side walls, the road and pavements,
/// the plaza, and the far skyline.
///
/// Unlike the rooms' art (`ProceduralTextures`), a street repeats itself: every facade is a
/// grid of windows of one design per building, and the windows of a grid differ only in
/// detail — a few centimetres of placement, curtains, blinds, a lit room, a repainted frame,
/// a flower box. That is what makes a real street hard to localize in, and what this scene
/// is for. Deterministic for a seed.
public enum StreetTextures {
    /// The kinds of street surface, told apart by texture id (see `StreetLayout.planes()`).
    public enum Surface: Sendable, Hashable {
        case facade, sideWall, ground, plaza, farGround, farBuilding

        public init?(_ textureId: String) {
            guard textureId.hasPrefix("street/") else { return nil }
            if textureId.contains("/facade/") { self = .facade }
            else if textureId.hasSuffix("/side-west") || textureId.hasSuffix("/side-east") { self = .sideWall }
            else if textureId.hasPrefix("street/ground-") { self = .ground }
            else if textureId == "street/plaza" { self = .plaza }
            else if textureId == "street/far-ground" { self = .farGround }
            else if textureId.hasPrefix("street/far-") { self = .farBuilding }
            else { return nil }
        }

        /// Texture density: windows and paving close to the camera are drawn finely, the
        /// plaza and the skyline (50 m and more away) coarsely.
        public var pixelsPerMetre: Double {
            switch self {
            case .facade: 128
            case .sideWall: 64
            case .ground: 160
            case .plaza: 40
            case .farGround: 8
            case .farBuilding: 24
            }
        }
    }

    /// Drawing operations for the street surface `surface`, `width`×`height` pixels at
    /// `ppm` pixels per metre.
    static func ops(_ surface: Surface, width w: Int, height h: Int, pixelsPerMetre ppm: Double, seed: UInt64,
                    textureId: String, _ r: inout SeededRandom) -> [TextureDrawOp] {
        switch surface {
        case .facade:
            let design = facadeDesign(seed: seed, design: designId(textureId), size: SIMD2(Double(w), Double(h)) / ppm)
            return facade(design, w, h, ppm, &r)
        case .sideWall: return sideWall(w, h, ppm, &r)
        case .ground: return ground(w, h, ppm, &r)
        case .plaza: return plaza(w, h, ppm, &r)
        case .farGround: return farGround(w, h, ppm, &r)
        case .farBuilding: return farBuilding(w, h, ppm, &r)
        }
    }

    // MARK: Facades

    /// The plan of a facade, in metres from its bottom-left corner: a ground floor of shop
    /// units, then storeys of windows on one grid of columns, up to a parapet; its material
    /// and colours. The buildings of a terrace share their design (`StreetLayout.Building.design`).
    public struct FacadeDesign: Sendable, Hashable {
        public enum Material: Sendable, Hashable { case plaster, brick, stone }
        /// How a window's glass is divided.
        public enum Mullions: Sendable, Hashable { case none, cross, twin, panes }

        public var size: SIMD2<Double>
        public var material: Material
        public var groundFloor: Double
        public var storey: Double
        public var storeys: Int
        /// Window centres along the facade (metres from its left edge).
        public var columns: [Double]
        public var window: SIMD2<Double>
        /// Height of a window's bottom above its storey's floor.
        public var sill: Double
        /// Shop units of the ground floor, `from`…`to` along the facade; none on a
        /// residential terrace, whose ground floor continues the window grid.
        public var shops: [ClosedRange<Double>]
        /// Residential: the columns with a front door instead of a ground-floor window.
        public var doors: [Int]
        /// Which side of every window's glass shows the bright reflection.
        public var reflectionOnLeft: Bool
        public var mullions: Mullions
        public var shutters: Bool
        /// Balconies on every `balconyEvery`-th column below the top storey (0: none).
        public var balconyEvery: Int
        /// String courses between the storeys.
        public var courses: Bool
        public var wall: RGBColor, trim: RGBColor, frame: RGBColor, shutter: RGBColor

        /// Bottom-left corner of the window in storey `storey` (1 = first above the ground
        /// floor), column `column`, before its jitter.
        public func windowOrigin(storey k: Int, column c: Int) -> SIMD2<Double> {
            SIMD2(columns[c] - window.x / 2, groundFloor + Double(k - 1) * storey + sill)
        }
    }

    /// The design `design` (a terrace's id) on a facade of `size` metres, drawn from its
    /// own random stream: the same for every building of the terrace, independent of the
    /// drawing of each.
    public static func facadeDesign(seed: UInt64, design: String, size: SIMD2<Double>) -> FacadeDesign {
        var r = SeededRandom(seed: seed, stream: "facade/\(design)")
        let hsv = ProceduralTextures.hsv, shade = ProceduralTextures.shade
        let material: FacadeDesign.Material = r.pick([.plaster, .plaster, .brick, .brick, .stone])
        let groundFloor = r.uniform(3.8...4.6)
        // Storeys of about 3.2 m filling the height up to a 0.9 m parapet.
        let storeys = max(1, Int(((size.y - groundFloor - 0.9) / r.uniform(3.0...3.4)).rounded()))
        let storey = (size.y - groundFloor - 0.9) / Double(storeys)
        // Columns on a regular pitch, centred, at least 0.8 m from the edges.
        let pitch = r.uniform(1.9...3.1)
        let n = max(1, Int((max(0, size.x - 1.6) / pitch).rounded(.down)) + 1)
        let first = (size.x - Double(n - 1) * pitch) / 2
        let columns = (0..<n).map { first + Double($0) * pitch }
        let window = SIMD2(min(pitch - 0.6, r.uniform(0.95...1.35)), min(storey - 1.1, r.uniform(1.4...1.85)))
        let sill = max(0.55, (storey - window.y) * r.uniform(0.45...0.6))
        var shops: [ClosedRange<Double>] = []
        var doors: [Int] = []
        if r.chance(0.5) {
            var x = r.uniform(0.3...0.8)
            let unit = r.uniform(3.5...7.5)
            while x < size.x - 2.5 {
                let u = min(size.x - 0.3 - x, unit)
                shops.append(x...(x + u))
                x += u + 0.6   // a pier between units
            }
        } else {
            let every = r.int(2...4), offset = r.int(0...(every - 1))
            doors = columns.indices.filter { $0 % every == offset }
        }
        let wall: RGBColor
        switch material {
        case .plaster: wall = hsv(r.uniform(0.02...0.16), r.uniform(0.08...0.4), r.uniform(0.62...0.9))
        case .brick: wall = hsv(r.uniform(0.0...0.06), r.uniform(0.45...0.7), r.uniform(0.4...0.62))
        case .stone: wall = hsv(r.uniform(0.08...0.14), r.uniform(0.05...0.18), r.uniform(0.55...0.78))
        }
        let trim = material == .plaster ? shade(wall, r.uniform(1.1...1.25)) : hsv(0.1, 0.1, r.uniform(0.7...0.85))
        let frame = r.pick([RGBColor(235, 235, 228), RGBColor(40, 42, 45), RGBColor(60, 80, 62), RGBColor(110, 75, 50),
                            RGBColor(150, 150, 145)])
        let shutter = hsv(r.pick([0.33, 0.55, 0.08, 0.0]), r.uniform(0.3...0.6), r.uniform(0.3...0.6))
        return FacadeDesign(size: size, material: material, groundFloor: groundFloor, storey: storey, storeys: storeys,
                            columns: columns, window: window, sill: sill, shops: shops, doors: doors,
                            reflectionOnLeft: r.chance(0.5),
                            mullions: r.pick([.none, .cross, .cross, .twin, .panes]), shutters: r.chance(0.3),
                            balconyEvery: r.pick([0, 0, 1, 2]), courses: r.chance(0.5),
                            wall: wall, trim: trim, frame: frame, shutter: shutter)
    }

    /// The terrace design a facade texture id names: `street/<building>/facade/<design>`.
    static func designId(_ textureId: String) -> String {
        textureId.split(separator: "/").last.map(String.init) ?? textureId
    }

    /// Smooth value noise around `base`, fainter than the rooms' plaster: a facade is
    /// plain between its windows.
    static func render(_ base: RGBColor, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        let shade = ProceduralTextures.shade
        return [.noise(cell: 0.9 * ppm, from: shade(base, 0.88), to: shade(base, 1.1), alpha: 0.5, seed: r.next()),
                .noise(cell: 0.15 * ppm, from: shade(base, 0.93), to: shade(base, 1.06), alpha: 0.3, seed: r.next())]
    }

    static func facade(_ d: FacadeDesign, _ w: Int, _ h: Int, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        let (W, H, area) = ProceduralTextures.extent(w, h, ppm)
        /// Texture pixel of the facade point (x, y) in metres from its bottom-left corner.
        func px(_ x: Double, _ y: Double) -> SIMD2<Double> { SIMD2(x * ppm, H - y * ppm) }
        func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ c: RGBColor, thickness: Int? = nil,
                 alpha: Double = 1) -> TextureDrawOp {
            .rect(min: px(x0, y1), max: px(x1, y0), color: c, thickness: thickness, alpha: alpha)
        }
        let hsv = ProceduralTextures.hsv, shade = ProceduralTextures.shade
        // Each building of a terrace weathered a little differently.
        let base = shade(d.wall, r.uniform(0.95...1.05)), trim = d.trim
        var ops: [TextureDrawOp] = [.fill(base)]
        ops += render(base, ppm, &r)
        switch d.material {
        case .brick:
            // Courses of 7.5 cm with staggered joints every 22.5 cm, in a mortar a little lighter.
            let mortar = shade(base, 1.3), course = 0.075 * ppm, brick = 0.225 * ppm
            var y = H, row = 0
            while y > 0 {
                ops.append(.line(from: SIMD2(0, y), to: SIMD2(W, y), color: mortar, thickness: 1, alpha: 0.45))
                var x = row % 2 == 0 ? 0 : brick / 2
                while x < W {
                    ops.append(.line(from: SIMD2(x, y), to: SIMD2(x, y - course), color: mortar, thickness: 1, alpha: 0.35))
                    x += brick
                }
                y -= course; row += 1
            }
        case .stone:
            // Ashlar blocks with a shade of their own.
            let bh = 0.5, bw = 1.1
            var y = 0.0, row = 0
            while y < d.size.y {
                var x = row % 2 == 0 ? 0 : -bw / 2
                while x < d.size.x {
                    ops.append(box(x, y, x + bw, y + bh, shade(base, r.uniform(0.96...1.04))))
                    ops.append(box(x, y, x + bw, y + bh, shade(base, 0.8), thickness: 2, alpha: 0.6))
                    x += bw
                }
                y += bh; row += 1
            }
        case .plaster:
            break
        }
        // Weathering: a few soft stains, darker near the ground.
        for _ in 0..<ProceduralTextures.count(area * 0.03, &r) {
            ops.append(.blob(center: ProceduralTextures.point(W, H, &r), sigma: r.uniform(0.4...1.5) * ppm,
                             color: shade(base, 0.75), alpha: r.uniform(0.1...0.25)))
        }
        ops.append(.rect(min: SIMD2(0, H - 1.2 * ppm), max: SIMD2(W, H), color: shade(base, 0.6), alpha: 0.2))

        // Bands: a plinth, a cornice over the ground floor, string courses, a parapet.
        ops.append(box(0, 0, d.size.x, 0.35, shade(base, 0.6)))
        ops.append(box(0, d.groundFloor - 0.05, d.size.x, d.groundFloor + 0.3, trim))
        ops.append(.line(from: px(0, d.groundFloor + 0.3), to: px(d.size.x, d.groundFloor + 0.3), color: shade(trim, 0.5),
                         thickness: 2))
        for k in 1..<max(1, d.storeys) where d.courses {
            let y = d.groundFloor + Double(k) * d.storey
            ops.append(box(0, y - 0.08, d.size.x, y + 0.08, trim))
        }
        ops.append(box(0, d.size.y - 0.35, d.size.x, d.size.y, trim))
        ops.append(.line(from: px(0, d.size.y - 0.35), to: px(d.size.x, d.size.y - 0.35), color: shade(trim, 0.45),
                         thickness: 3))

        // The window grid: one design, each window a little different.
        let frame = d.frame, shutter = d.shutter
        let balconyColumns = Set(d.columns.indices.filter { d.balconyEvery > 0 && $0 % d.balconyEvery == 0 })
        for k in 1...d.storeys {
            for c in d.columns.indices {
                let o = d.windowOrigin(storey: k, column: c)
                ops += window(at: o, size: d.window, d, frame: frame, shutter: shutter, trim: trim, balcony:
                                balconyColumns.contains(c) && k < d.storeys, px: px, ppm, &r)
            }
        }
        // The ground floor: shop fronts between piers, or the grid continued down, with
        // front doors up a step in some of its columns.
        for shop in d.shops { ops += shopFront(shop, d, px: px, ppm, &r) }
        if d.shops.isEmpty {
            for c in d.columns.indices {
                if d.doors.contains(c) {
                    ops += frontDoor(at: d.columns[c], d, px: px, ppm, &r)
                } else {
                    let o = SIMD2(d.columns[c] - d.window.x / 2, max(1.0, d.groundFloor - 0.45 - d.window.y))
                    ops += window(at: o, size: d.window, d, frame: frame, shutter: shutter, trim: trim, balcony: false,
                                  px: px, ppm, &r)
                }
            }
        }
        // A drainpipe at one edge, signs, posters and tags at street level, dirt.
        let pipeX = r.chance(0.5) ? 0.15 : d.size.x - 0.15
        ops.append(.line(from: px(pipeX, 0), to: px(pipeX, d.size.y - 0.3), color: shade(base, 0.45),
                         thickness: max(2, Int(0.09 * ppm))))
        for _ in 0..<r.int(0...2) {   // blade signs and banners at the first floor
            let x = r.uniform(0.5...max(0.6, d.size.x - 1.5)), y = d.groundFloor + r.uniform(0.5...1.2)
            let sw = r.uniform(0.5...1.0), sh = r.uniform(0.6...1.4)
            let c = hsv(r.unit(), r.uniform(0.5...0.9), r.uniform(0.4...0.9))
            ops.append(box(x, y, x + sw, y + sh, c))
            ops.append(box(x, y, x + sw, y + sh, shade(c, 0.4), thickness: 3))
            ops.append(.text(String(ProceduralTextures.randomWord(&r, upper: true).prefix(4)),
                             origin: px(x + 0.06, y + sh * 0.4), scale: sw * ppm / 130, font: r.pick([0, 2, 4]),
                             color: RGBColor(250, 250, 240), thickness: max(1, Int(sw * ppm / 60))))
        }
        for _ in 0..<ProceduralTextures.count(d.size.x * 0.05, &r) {   // tags on the piers and plinth
            var s = ProceduralTextures.stroke(W, H, ppm * 0.6, &r)
            for i in s.indices {
                if case let .polygon(points, color, thickness, closed, alpha) = s[i] {
                    let dy = H - r.uniform(0.3...2.2) * ppm - (points.first?.y ?? 0)
                    s[i] = .polygon(points: points.map { SIMD2($0.x, $0.y + dy) }, color: color, thickness: thickness,
                                    closed: closed, alpha: alpha)
                }
            }
            ops += s
        }
        ops += grime(W, H, ppm, density: 0.5 * area, &r)
        return ops
    }

    /// Dark spots of dirt, gum and chipped paint, a few pixels across.
    static func grime(_ W: Double, _ H: Double, _ ppm: Double, density: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        (0..<Int(density)).map { _ in
            let c = ProceduralTextures.point(W, H, &r), v = UInt8(r.int(20...70))
            let s = r.uniform(0.008...0.025) * ppm
            return .ellipse(center: c, radii: SIMD2(s, s * r.uniform(0.5...1)), color: RGBColor(v, v, v), alpha: r.uniform(0.4...0.8))
        }
    }

    /// One window of the grid at `o` (bottom-left, metres): surround, glass with its
    /// reflection, what hangs behind it, mullions, frame, sill, and maybe shutters, a
    /// balcony railing or a flower box.
    static func window(at o: SIMD2<Double>, size: SIMD2<Double>, _ d: FacadeDesign, frame: RGBColor, shutter: RGBColor,
                       trim: RGBColor, balcony: Bool, px: (Double, Double) -> SIMD2<Double>, _ ppm: Double,
                       _ r: inout SeededRandom) -> [TextureDrawOp] {
        let hsv = ProceduralTextures.hsv, shade = ProceduralTextures.shade
        // Jitter of a few centimetres: hand-built facades are not exact.
        let x0 = o.x + r.uniform(-0.03...0.03), y0 = o.y + r.uniform(-0.03...0.03)
        let x1 = x0 + size.x * r.uniform(0.98...1.02), y1 = y0 + size.y * r.uniform(0.98...1.02)
        func box(_ a: Double, _ b: Double, _ c: Double, _ e: Double, _ col: RGBColor, thickness: Int? = nil,
                 alpha: Double = 1) -> TextureDrawOp {
            .rect(min: px(a, e), max: px(c, b), color: col, thickness: thickness, alpha: alpha)
        }
        var ops: [TextureDrawOp] = []
        let t = max(2, Int(0.05 * ppm))
        // Surround and lintel.
        ops.append(box(x0 - 0.12, y0 - 0.1, x1 + 0.12, y1 + 0.18, trim))
        ops.append(box(x0 - 0.18, y1 + 0.1, x1 + 0.18, y1 + 0.26, shade(trim, 0.92)))
        // Glass: dark, with a reflection of the sky or the street opposite.
        let glass = hsv(r.uniform(0.55...0.62), r.uniform(0.1...0.35), r.uniform(0.12...0.3))
        let sky = hsv(r.uniform(0.55...0.6), r.uniform(0.05...0.25), r.uniform(0.4...0.75))
        // (Gradients run left to right; a rotated one would spill out of its rectangle.)
        let (g0, g1) = d.reflectionOnLeft ? (sky, glass) : (glass, sky)
        ops.append(.gradient(min: px(x0, y1), max: px(x1, y0), from: g0, to: g1))
        let w = x1 - x0, h = y1 - y0
        if r.chance(0.1) {   // a lit room
            ops.append(box(x0, y0, x1, y1, hsv(0.12, 0.45, 0.95), alpha: 0.7))
        }
        // Curtains: mostly white, cream or grey, now and then a colour.
        let curtain = r.chance(0.7) ? hsv(r.uniform(0.08...0.15), r.uniform(0...0.15), r.uniform(0.7...0.95))
                                    : hsv(r.unit(), r.uniform(0.2...0.6), r.uniform(0.5...0.9))
        switch r.int(0...9) {
        case 0, 1, 2:   // nothing
            break
        case 3, 4, 5:   // curtains drawn to both sides
            let a = w * r.uniform(0.15...0.35), b = w * r.uniform(0.15...0.35)
            ops.append(box(x0, y0, x0 + a, y1, curtain)); ops.append(box(x1 - b, y0, x1, y1, curtain))
            for k in 1..<4 {
                let f = Double(k) / 4
                ops.append(.line(from: px(x0 + a * f, y0), to: px(x0 + a * f, y1), color: shade(curtain, 0.8), thickness: 1))
            }
        case 6:         // one curtain
            let a = w * r.uniform(0.3...0.6)
            if r.chance(0.5) { ops.append(box(x0, y0, x0 + a, y1, curtain)) } else { ops.append(box(x1 - a, y0, x1, y1, curtain)) }
        case 7, 8:      // a blind, part way down
            let down = y1 - h * r.uniform(0.15...0.9)
            ops.append(box(x0, down, x1, y1, curtain))
            var y = y1
            while y > down {
                ops.append(.line(from: px(x0, y), to: px(x1, y), color: shade(curtain, 0.75), thickness: 1))
                y -= 0.06
            }
        default:        // net curtain over the lower half
            ops.append(box(x0, y0, x1, y0 + h * r.uniform(0.4...0.7), RGBColor(235, 235, 230), alpha: 0.6))
        }
        // Mullions and frame; now and then one window's frame was repainted.
        let f = r.chance(0.12) ? shade(frame, r.uniform(0.7...1.3)) : frame
        let m = max(2, Int(0.04 * ppm))
        switch d.mullions {
        case .none: break
        case .cross:
            ops.append(.line(from: px((x0 + x1) / 2, y0), to: px((x0 + x1) / 2, y1), color: f, thickness: m))
            ops.append(.line(from: px(x0, y0 + h * 0.68), to: px(x1, y0 + h * 0.68), color: f, thickness: m))
        case .twin:
            ops.append(.line(from: px((x0 + x1) / 2, y0), to: px((x0 + x1) / 2, y1), color: f, thickness: m))
        case .panes:
            for k in 1..<3 {
                ops.append(.line(from: px(x0 + w * Double(k) / 3, y0), to: px(x0 + w * Double(k) / 3, y1), color: f, thickness: m))
            }
            ops.append(.line(from: px(x0, y0 + h / 2), to: px(x1, y0 + h / 2), color: f, thickness: m))
        }
        ops.append(box(x0, y0, x1, y1, f, thickness: t))
        // Sill.
        ops.append(box(x0 - 0.1, y0 - 0.09, x1 + 0.1, y0, shade(trim, 0.85)))
        if d.shutters {
            let sw = w / 2 + 0.02
            for (a, b) in [(x0 - 0.12 - sw, x0 - 0.12), (x1 + 0.12, x1 + 0.12 + sw)] {
                ops.append(box(a, y0, b, y1, shutter))
                var y = y0 + 0.05
                while y < y1 {
                    ops.append(.line(from: px(a, y), to: px(b, y), color: shade(shutter, 0.65), thickness: 1))
                    y += 0.07
                }
            }
        }
        if balcony {
            // A railing in front of the lower part, on a slab.
            let rl = x0 - 0.35, rr = x1 + 0.35, top = y0 + 0.95
            ops.append(box(rl, y0 - 0.28, rr, y0 - 0.12, shade(trim, 0.8)))
            ops.append(.line(from: px(rl, top), to: px(rr, top), color: RGBColor(30, 30, 32), thickness: max(2, Int(0.04 * ppm))))
            var x = rl
            while x <= rr + 1e-9 {
                ops.append(.line(from: px(x, y0 - 0.12), to: px(x, top), color: RGBColor(30, 30, 32), thickness: 2))
                x += 0.12
            }
        } else if r.chance(0.08) {
            // A flower box.
            ops.append(box(x0, y0, x1, y0 + 0.18, hsv(0.07, 0.5, 0.45)))
            for _ in 0..<r.int(4...8) {
                let c = SIMD2(r.uniform(x0...x1), y0 + r.uniform(0.18...0.35))
                ops.append(.ellipse(center: px(c.x, c.y), radii: SIMD2(0.07, 0.06) * ppm, color:
                                        r.chance(0.6) ? hsv(0.3, 0.6, 0.45) : hsv(r.pick([0.0, 0.9, 0.15]), 0.8, 0.9)))
            }
        }
        return ops
    }

    /// A front door centred on `x`: a panelled door under a fanlight in a stone surround, a
    /// step, a house number.
    static func frontDoor(at x: Double, _ d: FacadeDesign, px: (Double, Double) -> SIMD2<Double>, _ ppm: Double,
                          _ r: inout SeededRandom) -> [TextureDrawOp] {
        let hsv = ProceduralTextures.hsv, shade = ProceduralTextures.shade
        func box(_ a: Double, _ b: Double, _ c: Double, _ e: Double, _ col: RGBColor, thickness: Int? = nil) -> TextureDrawOp {
            .rect(min: px(a, e), max: px(c, b), color: col, thickness: thickness)
        }
        let x0 = x - 0.55, x1 = x + 0.55, top = min(d.groundFloor - 0.3, 3.0)
        let paint = r.chance(0.5) ? hsv(r.pick([0.0, 0.33, 0.6, 0.08]), r.uniform(0.4...0.8), r.uniform(0.2...0.6))
                                  : RGBColor(30, 30, 32)
        var ops: [TextureDrawOp] = [box(x0 - 0.2, 0, x1 + 0.2, top + 0.2, d.trim),
                                    box(x0 - 0.3, 0, x1 + 0.3, 0.18, shade(d.trim, 0.8)),   // the step
                                    box(x0, 0.18, x1, top - 0.55, paint),
                                    .gradient(min: px(x0, top), max: px(x1, top - 0.45), from: hsv(0.58, 0.15, 0.55),
                                              to: hsv(0.6, 0.2, 0.2))]
        for (y0, y1) in [(0.35, 1.2), (1.35, top - 0.7)] {
            ops.append(box(x0 + 0.12, y0, x - 0.05, y1, shade(paint, 0.7), thickness: 2))
            ops.append(box(x + 0.05, y0, x1 - 0.12, y1, shade(paint, 0.7), thickness: 2))
        }
        ops.append(.ellipse(center: px(x1 - 0.15, 1.25), radii: SIMD2(0.03, 0.03) * ppm, color: RGBColor(200, 180, 90)))
        ops.append(.text("\(r.int(1...240))", origin: px(x - 0.1, top - 0.32), scale: 0.12 * ppm / 22, font: 0,
                         color: RGBColor(235, 235, 225), thickness: 2))
        return ops
    }

    /// A shop unit of the ground floor: a fascia with the shop's name, a glazed front with
    /// things in the window, a door, sometimes an awning or a roller shutter.
    static func shopFront(_ s: ClosedRange<Double>, _ d: FacadeDesign, px: (Double, Double) -> SIMD2<Double>,
                          _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        let hsv = ProceduralTextures.hsv, shade = ProceduralTextures.shade
        func box(_ a: Double, _ b: Double, _ c: Double, _ e: Double, _ col: RGBColor, thickness: Int? = nil,
                 alpha: Double = 1) -> TextureDrawOp {
            .rect(min: px(a, e), max: px(c, b), color: col, thickness: thickness, alpha: alpha)
        }
        var ops: [TextureDrawOp] = []
        let x0 = s.lowerBound, x1 = s.upperBound
        let fascia0 = d.groundFloor - 0.85, fascia1 = d.groundFloor - 0.15
        let brand = hsv(r.unit(), r.uniform(0.4...0.95), r.uniform(0.25...0.85))
        let frame = r.chance(0.5) ? RGBColor(30, 30, 32) : shade(brand, 0.6)
        // Fascia and name.
        ops.append(box(x0, fascia0, x1, fascia1, brand))
        ops.append(box(x0, fascia0, x1, fascia1, shade(brand, 0.5), thickness: 3))
        let name = ProceduralTextures.randomWord(&r, upper: r.chance(0.7))
        let letters = (fascia1 - fascia0) * 0.6
        ops.append(.text(name, origin: px(x0 + r.uniform(0.2...0.6), fascia0 + (fascia1 - fascia0) * 0.25),
                         scale: letters * ppm / 24, font: r.pick([0, 2, 3, 4, 6]),
                         color: r.chance(0.5) ? RGBColor(250, 250, 245) : RGBColor(20, 20, 22),
                         thickness: max(2, Int(letters * ppm / 14))))
        if r.chance(0.2) {
            // Closed: a roller shutter, often tagged.
            ops.append(box(x0, 0.05, x1, fascia0, hsv(0.0, 0.0, r.uniform(0.45...0.65))))
            var y = 0.1
            while y < fascia0 {
                ops.append(.line(from: px(x0, y), to: px(x1, y), color: RGBColor(70, 70, 72), thickness: 1))
                y += 0.08
            }
            return ops
        }
        // Glazing: dark glass with the street reflected, a door at one side.
        let glass = hsv(r.uniform(0.5...0.62), r.uniform(0.1...0.3), r.uniform(0.12...0.28))
        ops.append(.gradient(min: px(x0, fascia0), max: px(x1, 0.45),
                             from: hsv(0.58, 0.15, r.uniform(0.45...0.7)), to: glass))
        let doorLeft = r.chance(0.5)
        let door0 = doorLeft ? x0 + 0.15 : x1 - 1.15, door1 = door0 + 1.0
        // Goods and posters in the window.
        let win0 = doorLeft ? door1 + 0.1 : x0 + 0.1, win1 = doorLeft ? x1 - 0.1 : door0 - 0.1
        if win1 - win0 > 0.5 {
            for _ in 0..<r.int(1...4) {
                let c = SIMD2(r.uniform(win0...win1), r.uniform(0.6...(fascia0 - 0.4)))
                let size = r.uniform(0.15...0.6) * ppm
                ops.append(ProceduralTextures.shape(0, 0, size: size, near: px(c.x, c.y), spread: 0.1 * ppm, &r))
            }
            if r.chance(0.6) {
                let c = SIMD2(r.uniform(win0...max(win0, win1 - 0.6)), r.uniform(1.2...max(1.21, fascia0 - 0.9)))
                let poster = hsv(r.unit(), 0.7, 0.85)
                ops.append(box(c.x, c.y, c.x + 0.55, c.y + 0.8, poster))
                ops.append(.text(ProceduralTextures.randomWord(&r, upper: true), origin: px(c.x + 0.04, c.y + 0.6),
                                 scale: 0.55 * ppm / 140, font: 0, color: RGBColor(20, 20, 20), thickness: 2))
            }
            // Opening hours and a sticker on the glass.
            ops.append(.text("\(r.int(7...10))-\(r.int(17...22))", origin: px(win0 + 0.1, 1.1), scale: 0.1 * ppm / 22,
                             font: 0, color: RGBColor(240, 240, 240), thickness: 1))
            // Glazing bars.
            let bars = max(1, Int((win1 - win0) / r.uniform(1.2...2.2)))
            for k in 1..<(bars + 1) where k < bars {
                let x = win0 + (win1 - win0) * Double(k) / Double(bars)
                ops.append(.line(from: px(x, 0.45), to: px(x, fascia0), color: frame, thickness: max(2, Int(0.05 * ppm))))
            }
        }
        ops.append(box(x0, 0.35, x1, 0.45, frame))
        ops.append(box(x0, 0.35, x1, fascia0, frame, thickness: max(2, Int(0.06 * ppm))))
        // Door: a glazed panel in a frame, a handle.
        ops.append(box(door0, 0.02, door1, fascia0 - 0.1, shade(frame, 1.2)))
        ops.append(box(door0 + 0.12, 0.3, door1 - 0.12, fascia0 - 0.3, shade(glass, 0.8)))
        ops.append(.line(from: px(door0 + (doorLeft ? 0.85 : 0.15), 0.9), to: px(door0 + (doorLeft ? 0.85 : 0.15), 1.3),
                         color: RGBColor(200, 200, 195), thickness: max(2, Int(0.03 * ppm))))
        if r.chance(0.4) {
            // A striped awning over the front, seen flat.
            let a = hsv(r.unit(), 0.7, 0.75), b = RGBColor(235, 235, 228)
            let top = fascia0 - 0.02, bottom = fascia0 - 0.65
            var x = x0
            var k = 0
            while x < x1 {
                let x2 = min(x1, x + 0.3)
                ops.append(box(x, bottom, x2, top, k % 2 == 0 ? a : b))
                x = x2; k += 1
            }
            var scallop = x0
            while scallop < x1 {
                ops.append(.ellipse(center: px(min(x1, scallop + 0.15), bottom), radii: SIMD2(0.15, 0.08) * ppm, color: a))
                scallop += 0.3
            }
        }
        return ops
    }

    // MARK: Other surfaces

    /// A blank side wall: render or brick-coloured plaster, stains, sometimes a small window
    /// or a painted advertisement.
    static func sideWall(_ w: Int, _ h: Int, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        let (W, H, area) = ProceduralTextures.extent(w, h, ppm)
        let base = ProceduralTextures.hsv(r.uniform(0.02...0.14), r.uniform(0.1...0.45), r.uniform(0.5...0.8))
        var ops: [TextureDrawOp] = [.fill(base)]
        ops += render(base, ppm, &r)
        for _ in 0..<ProceduralTextures.count(area * 0.15, &r) {
            ops.append(.blob(center: ProceduralTextures.point(W, H, &r), sigma: r.uniform(0.3...1.5) * ppm,
                             color: ProceduralTextures.shade(base, 0.65), alpha: r.uniform(0.15...0.35)))
        }
        for _ in 0..<r.int(0...3) {
            let c = SIMD2(r.uniform(0...W), r.uniform(0...(H - 4 * ppm)))
            ops.append(.rect(min: c, max: c + SIMD2(0.6, 0.8) * ppm, color: RGBColor(40, 45, 55)))
        }
        if r.chance(0.3) {
            let c = SIMD2(r.uniform(0...(W * 0.5)), r.uniform(0...(H * 0.4)))
            ops.append(.gradient(min: c, max: c + SIMD2(W * 0.4, H * 0.3), angle: 0,
                                 from: ProceduralTextures.hsv(r.unit(), 0.7, 0.8), to: ProceduralTextures.hsv(r.unit(), 0.7, 0.6)))
            ops.append(.text(ProceduralTextures.randomWord(&r, upper: true), origin: c + SIMD2(0.05 * W, 0.2 * H),
                             scale: W * 0.4 / 200, font: 2, color: RGBColor(250, 250, 250), thickness: max(2, Int(W / 300))))
        }
        ops += grime(W, H, ppm, density: 0.5 * area, &r)
        return ops
    }

    /// A piece of the street's ground (`StreetLayout.groundSegment` long, across the whole
    /// street): slab pavements along both rows of buildings, kerbs, gutters, and asphalt
    /// between them with a dashed centre line, patches, cracks and covers. Texture y runs
    /// across the street from its north edge; the patterns repeat along x with the pieces.
    static func ground(_ w: Int, _ h: Int, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        let (W, H, area) = ProceduralTextures.extent(w, h, ppm)
        let hsv = ProceduralTextures.hsv, shade = ProceduralTextures.shade
        let across = H / ppm
        let edge = 1.0   // the ground reaches this far under the building line
        let kerbN = (edge + StreetLayout.pavement) * ppm, kerbS = (across - edge - StreetLayout.pavement) * ppm
        let asphalt = hsv(0.6, r.uniform(0.02...0.08), r.uniform(0.28...0.36))
        var ops: [TextureDrawOp] = [.fill(asphalt),
                                    .noise(cell: 1.0 * ppm, from: shade(asphalt, 0.88), to: shade(asphalt, 1.12), alpha: 0.5,
                                           seed: r.next()),
                                    .noise(cell: 0.02 * ppm, from: shade(asphalt, 0.85), to: shade(asphalt, 1.15), alpha: 0.4,
                                           seed: r.next())]
        // Patches and cracks in the asphalt.
        for _ in 0..<ProceduralTextures.count(area * 0.04, &r) {
            let c = SIMD2(r.uniform(0...W), r.uniform(kerbN...kerbS))
            let s = SIMD2(r.uniform(0.4...1.8), r.uniform(0.3...1.2)) * ppm
            ops.append(.rect(min: c - s / 2, max: c + s / 2, color: shade(asphalt, r.uniform(0.75...1.2)), alpha: 0.8))
        }
        for _ in 0..<ProceduralTextures.count(area * 0.05, &r) {
            var p = SIMD2(r.uniform(0...W), r.uniform(kerbN...kerbS))
            var pts = [p]
            var heading = r.uniform(0...(2 * .pi))
            for _ in 0..<r.int(4...10) {
                heading += r.uniform(-0.7...0.7)
                p += SIMD2(cos(heading), sin(heading)) * 0.15 * ppm
                pts.append(p)
            }
            ops.append(.polygon(points: pts, color: shade(asphalt, 0.55), thickness: 2, closed: false))
        }
        // Dashed centre line: 2.5 m dashes every 5 m, in phase from one piece to the next.
        let mid = H / 2
        var x = 0.0
        while x < W {
            ops.append(.rect(min: SIMD2(x + 1.25 * ppm, mid - 0.06 * ppm), max: SIMD2(x + 3.75 * ppm, mid + 0.06 * ppm),
                             color: RGBColor(225, 225, 215), alpha: r.uniform(0.7...0.9)))
            x += 5 * ppm
        }
        if r.chance(0.4) {   // a cover in the road
            let c = SIMD2(r.uniform(0...W), r.uniform((kerbN + ppm)...(kerbS - ppm)))
            ops.append(.ellipse(center: c, radii: SIMD2(0.3, 0.3) * ppm, color: RGBColor(55, 55, 58)))
            for k in -2...2 {
                ops.append(.line(from: c + SIMD2(Double(k) * 0.1, -0.25) * ppm, to: c + SIMD2(Double(k) * 0.1, 0.25) * ppm,
                                 color: RGBColor(85, 85, 88), thickness: 2))
            }
        }
        // Pavements: slabs in rows along the street, each a shade of its own (0.5 m: the
        // joints continue from one piece to the next).
        let slabColour = hsv(r.uniform(0.05...0.12), r.uniform(0.03...0.12), r.uniform(0.55...0.7))
        let slab = SIMD2(0.5, 0.5) * ppm
        for (lo, hi) in [(0.0, kerbN), (kerbS, H)] {
            var y = lo
            var row = 0
            while y < hi {
                var x = row % 2 == 0 ? 0 : -slab.x / 2
                while x < W {
                    ops.append(.rect(min: SIMD2(x, y), max: SIMD2(x + slab.x, min(hi, y + slab.y)),
                                     color: shade(slabColour, r.uniform(0.95...1.05))))
                    ops.append(.rect(min: SIMD2(x, y), max: SIMD2(x + slab.x, min(hi, y + slab.y)),
                                     color: shade(slabColour, 0.65), thickness: 2))
                    x += slab.x
                }
                y += slab.y; row += 1
            }
        }
        // Kerbs and gutters.
        for (k, toward) in [(kerbN, 1.0), (kerbS, -1.0)] {
            let a = k, b = k + toward * 0.18 * ppm
            ops.append(.rect(min: SIMD2(0, min(a, b)), max: SIMD2(W, max(a, b)), color: RGBColor(175, 172, 165)))
            var x = 0.0
            while x < W {
                ops.append(.line(from: SIMD2(x, a), to: SIMD2(x, b), color: RGBColor(120, 118, 112), thickness: 2))
                x += 1.0 * ppm
            }
            let g = b + toward * 0.3 * ppm
            ops.append(.rect(min: SIMD2(0, min(b, g)), max: SIMD2(W, max(b, g)), color: shade(asphalt, 0.8)))
        }
        // Stains and litter all over.
        for _ in 0..<ProceduralTextures.count(area * 0.3, &r) {
            ops.append(.blob(center: ProceduralTextures.point(W, H, &r), sigma: r.uniform(0.05...0.3) * ppm,
                             color: hsv(0.08, 0.3, 0.2), alpha: r.uniform(0.15...0.4)))
        }
        ops += grime(W, H, ppm, density: 1.5 * area, &r)
        return ops
    }

    /// The plaza: large stone slabs, seen from 20 m and more.
    static func plaza(_ w: Int, _ h: Int, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        let (W, H, area) = ProceduralTextures.extent(w, h, ppm)
        let base = ProceduralTextures.hsv(r.uniform(0.06...0.12), 0.1, r.uniform(0.55...0.65))
        var ops: [TextureDrawOp] = [.fill(base)]
        ops += ProceduralTextures.plaster(base, ppm, &r)
        var y = 0.0
        while y < H {
            ops.append(.line(from: SIMD2(0, y), to: SIMD2(W, y), color: ProceduralTextures.shade(base, 0.7), thickness: 1))
            y += 1.2 * ppm
        }
        var x = 0.0
        while x < W {
            ops.append(.line(from: SIMD2(x, 0), to: SIMD2(x, H), color: ProceduralTextures.shade(base, 0.7), thickness: 1))
            x += 1.2 * ppm
        }
        for _ in 0..<ProceduralTextures.count(area * 0.02, &r) {
            ops.append(.blob(center: ProceduralTextures.point(W, H, &r), sigma: r.uniform(0.3...1.5) * ppm,
                             color: ProceduralTextures.shade(base, 0.7), alpha: 0.3))
        }
        return ops
    }

    /// What lies between the plaza and the skyline, seen only at grazing angles: grass,
    /// roads, water, in broad patches.
    static func farGround(_ w: Int, _ h: Int, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        let (W, H, area) = ProceduralTextures.extent(w, h, ppm)
        let base = ProceduralTextures.hsv(0.25, 0.25, 0.4)
        var ops: [TextureDrawOp] = [.fill(base)]
        ops += ProceduralTextures.plaster(base, ppm, &r)
        for _ in 0..<ProceduralTextures.count(area * 0.0008, &r) {
            let c = ProceduralTextures.point(W, H, &r), s = SIMD2(r.uniform(5...40), r.uniform(5...40)) * ppm
            ops.append(.rect(min: c - s, max: c + s, color: ProceduralTextures.hsv(r.pick([0.25, 0.6, 0.1]), 0.2, r.uniform(0.3...0.55))))
        }
        return ops
    }

    /// A building of the skyline: a tower or block with a regular grid of windows (some
    /// lit), floor bands, and sometimes a name at the top.
    static func farBuilding(_ w: Int, _ h: Int, _ ppm: Double, _ r: inout SeededRandom) -> [TextureDrawOp] {
        let (W, H, _) = ProceduralTextures.extent(w, h, ppm)
        let hsv = ProceduralTextures.hsv, shade = ProceduralTextures.shade
        let glassy = r.chance(0.4)
        let base = glassy ? hsv(r.uniform(0.5...0.62), r.uniform(0.15...0.4), r.uniform(0.35...0.6))
                          : hsv(r.uniform(0.03...0.15), r.uniform(0.05...0.35), r.uniform(0.5...0.85))
        var ops: [TextureDrawOp] = [.fill(base)]
        ops += ProceduralTextures.plaster(base, ppm, &r)
        let storey = r.uniform(3.0...3.8) * ppm, pitch = r.uniform(1.5...3.2) * ppm
        let win = SIMD2(pitch * r.uniform(0.45...0.8), storey * r.uniform(0.4...0.65))
        var y = H - storey
        while y > 0.5 * storey {
            ops.append(.line(from: SIMD2(0, y + storey * 0.02), to: SIMD2(W, y + storey * 0.02), color: shade(base, 0.75),
                             thickness: max(1, Int(0.15 * ppm))))
            var x = (W.truncatingRemainder(dividingBy: pitch)) / 2
            while x + win.x < W {
                let lit = r.chance(0.12)
                let c = lit ? hsv(0.13, 0.4, 0.9) : hsv(0.58, r.uniform(0.1...0.3), r.uniform(0.12...0.35))
                ops.append(.rect(min: SIMD2(x, y - win.y), max: SIMD2(x + win.x, y), color: c))
                x += pitch
            }
            y -= storey
        }
        if r.chance(0.35) {
            let scale = W * 0.5 / 180
            ops.append(.rect(min: SIMD2(W * 0.2, 0.2 * storey), max: SIMD2(W * 0.8, 0.2 * storey + 28 * scale),
                             color: hsv(r.unit(), 0.7, 0.5)))
            ops.append(.text(ProceduralTextures.randomWord(&r, upper: true), origin: SIMD2(W * 0.22, 0.2 * storey + 24 * scale),
                             scale: scale, font: 0, color: RGBColor(250, 250, 250), thickness: max(1, Int(scale * 2))))
        }
        return ops
    }
}
