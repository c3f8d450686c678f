import Foundation
import Geometry
import Testing
import Vision

/// The renderer draws scene points where the pinhole model with the ground-truth pose
/// projects them: coloured dots on a wall texture are found (by colour centroid) within a
/// fraction of a pixel of the projection of their 3D centres.
@Suite struct SynthRenderGeometryTests {
    /// A 4 m × 2.5 m wall at z = 0 facing +z, texture 800×500 px (200 px/m).
    static let wallCorners: [SIMD3<Double>] = [SIMD3(-2, 0, 0), SIMD3(2, 0, 0), SIMD3(2, 2.5, 0), SIMD3(-2, 2.5, 0)]
    static let dots: [(texel: SIMD2<Double>, color: RGBColor)] = [
        (SIMD2(250, 150), RGBColor(255, 0, 0)), (SIMD2(560, 170), RGBColor(0, 255, 0)),
        (SIMD2(300, 380), RGBColor(0, 0, 255)), (SIMD2(520, 330), RGBColor(255, 255, 0)),
    ]
    static let camera = CameraIntrinsics(width: 320, height: 240, fx: 260, fy: 260, cx: 159.5, cy: 119.5)

    static func wallTexture() throws -> RenderTexture {
        var ops: [TextureDrawOp] = [.fill(RGBColor(60, 60, 60))]
        for d in dots { ops.append(.ellipse(center: d.texel, radii: SIMD2(9, 9), color: d.color)) }
        return try RenderTexture(width: 800, height: 500, ops: ops)
    }

    /// The map point of a texel of the wall.
    static func mapPoint(_ texel: SIMD2<Double>) -> SIMD3<Double> {
        // Texel (i, j) has its centre at ((i + 0.5) / w, (j + 0.5) / h) of the plane.
        let u = (texel.x + 0.5) / 800, v = (texel.y + 0.5) / 500
        let top = wallCorners[3] + (wallCorners[2] - wallCorners[3]) * u
        let bottom = wallCorners[0] + (wallCorners[1] - wallCorners[0]) * u
        return top + (bottom - top) * v
    }

    /// Centroid of the pixels close to `color` (nil if fewer than 8).
    static func centroid(of color: RGBColor, in image: RenderedImage) -> SIMD2<Double>? {
        var sum = SIMD2<Double>.zero, n = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = SIMD3<Double>(image[x, y]) - SIMD3<Double>(color)
                let d = (p * p).sum().squareRoot()
                // Weighted by closeness so anti-aliased edges count in proportion.
                let w = max(0, 1 - d / 120)
                if w > 0 { sum += SIMD2(Double(x), Double(y)) * w; n += w }
            }
        }
        return n >= 8 ? sum / n : nil
    }

    @Test(arguments: [
        (SIMD3(0.0, 1.3, 3.0), SIMD3(0.0, 1.25, 0.0)),       // head-on
        (SIMD3(-1.5, 1.6, 2.0), SIMD3(0.3, 1.1, 0.0)),       // oblique from the left
        (SIMD3(1.8, 0.9, 1.6), SIMD3(-0.2, 1.4, 0.0)),       // oblique from the right, looking up
        (SIMD3(0.4, 1.5, 4.5), SIMD3(0.6, 1.0, 0.0)),        // far
    ])
    func dotsAppearWhereTheyProject(eye: SIMD3<Double>, target: SIMD3<Double>) throws {
        let texture = try Self.wallTexture()
        let pose = Pose.lookAt(eye: eye, target: target)
        let image = try Renderer.render(camera: Self.camera, poses: [pose],
                                        planes: [RenderPlane(corners: Self.wallCorners, texture: texture)]).image
        var checked = 0
        for d in Self.dots {
            guard let expected = Self.camera.project(pose.inverse.apply(Self.mapPoint(d.texel))),
                  expected.x > 10, expected.y > 10,
                  expected.x < Double(Self.camera.width - 10), expected.y < Double(Self.camera.height - 10) else { continue }
            let found = try #require(Self.centroid(of: d.color, in: image), "dot \(d.color) not drawn")
            let err = ((found - expected) * (found - expected)).sum().squareRoot()
            #expect(err < 0.5, "dot \(d.color): drawn at \(found), projects to \(expected)")
            checked += 1
        }
        #expect(checked >= 3)
    }

    @Test func motionBlurSmearsAlongTheImageMotion() throws {
        let texture = try Self.wallTexture()
        let a = Pose.lookAt(eye: SIMD3(0, 1.3, 3), target: SIMD3(0, 1.25, 0))
        // Pan right by ~2.5° over the exposure: the image moves left by ~11 px.
        let poses = (0..<12).map { k in
            a * Pose(rotation: Quaternion(axis: SIMD3(0, 1, 0), angle: -0.044 * Double(k) / 11), translation: .zero)
        }
        let plane = RenderPlane(corners: Self.wallCorners, texture: texture)
        let sharp = try Renderer.render(camera: Self.camera, poses: [a], planes: [plane]).image
        let blurred = try Renderer.render(camera: Self.camera, poses: poses, planes: [plane]).image
        // Extent of the red dot's pixels along x and y.
        func extent(_ img: RenderedImage) -> (x: Int, y: Int) {
            var xs: [Int] = [], ys: [Int] = []
            for y in 0..<img.height { for x in 0..<img.width where img[x, y].x > 120 && img[x, y].y < 90 { xs.append(x); ys.append(y) } }
            return ((xs.max() ?? 0) - (xs.min() ?? 0), (ys.max() ?? 0) - (ys.min() ?? 0))
        }
        let s = extent(sharp), b = extent(blurred)
        #expect(b.x >= s.x + 4, "blur should widen the dot horizontally: \(s) → \(b)")
        #expect(abs(b.y - s.y) <= 1, "and not vertically: \(s) → \(b)")
    }

    @Test func planesBehindTheCameraAreClippedNotWarped() throws {
        // A camera standing on a 40 m floor that extends far behind it, looking level: every
        // pixel below the horizon is floor, every pixel above is background.
        let floor = try RenderTexture(width: 64, height: 64, ops: [.fill(RGBColor(200, 30, 30))])
        let corners: [SIMD3<Double>] = [SIMD3(-20, 0, 20), SIMD3(20, 0, 20), SIMD3(20, 0, -20), SIMD3(-20, 0, -20)]
        let pose = Pose.lookAt(eye: SIMD3(0, 1.5, 0), target: SIMD3(0, 1.5, -5))
        let (image, ids) = try Renderer.render(camera: Self.camera, poses: [pose], planes: [RenderPlane(corners: corners, texture: floor)],
                                               effects: RenderEffects(background: RGBColor(0, 0, 255)), planeIds: true)
        let ids0 = try #require(ids)
        // Horizon at cy; the floor's far edge (20 m at 1.5 m below the eye) is 19.5 px below it.
        var wrong = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let below = Double(y) > Self.camera.cy + 260 * 1.5 / 20 + 1
                let above = Double(y) < Self.camera.cy + 260 * 1.5 / 20 - 1
                let id = ids0[y * image.width + x]
                if below && id != 0 { wrong += 1 }
                if above && id != -1 { wrong += 1 }
            }
        }
        #expect(wrong == 0)
        #expect(image[160, 230] == RGBColor(200, 30, 30))
        #expect(image[160, 10] == RGBColor(0, 0, 255))
    }

    @Test func nearerPlanesHideFartherOnes() throws {
        let red = try RenderTexture(width: 8, height: 8, ops: [.fill(RGBColor(255, 0, 0))])
        let green = try RenderTexture(width: 8, height: 8, ops: [.fill(RGBColor(0, 255, 0))])
        let far = RenderPlane(corners: Self.wallCorners, texture: red)
        // A small panel 1 m in front of the wall, drawn first in the list: order must not matter.
        let near = RenderPlane(corners: [SIMD3(-0.3, 1.0, 1), SIMD3(0.3, 1.0, 1), SIMD3(0.3, 1.5, 1), SIMD3(-0.3, 1.5, 1)],
                               texture: green)
        let pose = Pose.lookAt(eye: SIMD3(0, 1.25, 3), target: SIMD3(0, 1.25, 0))
        for planes in [[near, far], [far, near]] {
            let image = try Renderer.render(camera: Self.camera, poses: [pose], planes: planes).image
            #expect(image[160, 120] == RGBColor(0, 255, 0))
            #expect(image[20, 120] == RGBColor(255, 0, 0))
        }
    }
}
