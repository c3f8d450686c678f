import Geometry
import GraffityARCloud
import Testing

@MainActor
@Suite("Taps on AR objects")
struct TapTests {
    @Test("before localization a tap hits nothing and says so")
    func beforeLocalization() async throws {
        let (_, host, _, delegate) = try Fixtures.makeGroundTruth(refuse: ["f0"])
        try await host.loadView()
        try await host.advance(by: .zero)
        let pixel = Fixtures.pixel(of: SIMD3(0.5, 1.5, 3), inFrame: 0)
        let event = try host.tap(at: pixel)
        #expect(event == TapEvent(pixel: pixel, missReason: "not localized"))
        #expect(delegate.events == [.localization(.notLocalized(frameId: "f0", reason: "refused by the test")), .tap(event)])
    }

    @Test("tapping a collectible collects it; it leaves the scene and the next tap finds what was behind it")
    func collect() async throws {
        let (sdk, host, _, delegate) = try Fixtures.makeGroundTruth()
        try await host.loadView()
        try await host.advance(by: .seconds(0.3))
        let centre = SIMD3(0.5, 1.5, 3.0)
        let pixel = Fixtures.pixel(of: centre, inFrame: 3)
        let first = try host.tap(at: pixel)
        #expect(first.objectId == "coin")
        #expect(length(try #require(first.hitPoint) - centre) < 1e-6, "the ray enters the coin at its front face")
        #expect(delegate.events.suffix(2) == [.tap(first),
                                              .collection(CollectionEvent(objectId: "coin",
                                                                          payload: ["title": "Gold coin", "points": "10"]))])
        #expect(host.collectedObjectIds == ["coin"])
        #expect(host.scene?.objects.contains { $0.id == "coin" } == false)

        let second = try host.tap(at: pixel)
        #expect(second.objectId == "mural")
        #expect(abs(try #require(second.hitPoint).z - 4) < 1e-9)
        #expect(delegate.events.last == .tap(second), "a mural is not collected")
        // The coin stays gone after a reset.
        await sdk.reset()
        #expect(host.scene?.objects.contains { $0.id == "coin" } == false)
    }

    @Test("tapping a link opens its url; a tap on empty space or outside the image misses")
    func linkAndMisses() async throws {
        let (_, host, _, delegate) = try Fixtures.makeGroundTruth()
        try await host.loadView()
        try await host.advance(by: .seconds(0.2))
        let tap = try host.tap(at: Fixtures.pixel(of: SIMD3(-1.2, 1.2, 3), inFrame: 2))
        #expect(tap.objectId == "poster")
        #expect(delegate.events.last == .link(LinkEvent(objectId: "poster", url: "https://example.com/poster")))

        // Above the mural's top edge.
        let empty = try host.tap(at: Fixtures.pixel(of: SIMD3(1.0, 2.4, 2), inFrame: 2))
        #expect(empty.objectId == nil && empty.missReason == "no AR object under the tap")
        let outside = try host.tap(at: SIMD2(-5, 100))
        #expect(outside.missReason == "outside the image")
    }

    @Test("the ray picks the nearest box, and boxes have depth")
    func rayGeometry() throws {
        // A 1 m cube whose front face is at z = 2, facing the camera at the origin (looking +z).
        let cube = Fixtures.facingCamera("cube", .graffiti, at: SIMD3(0, 0, 2), size: SIMD3(1, 1, 1))
        let ray = SceneRay(origin: .zero, direction: SIMD3(0, 0, 1))
        #expect(ray.distance(to: cube) == 2)
        // Grazing past the side misses; through the side face it enters later.
        #expect(SceneRay(origin: SIMD3(0.6, 0, 0), direction: SIMD3(0, 0, 1)).distance(to: cube) == nil)
        let slanted = SceneRay(origin: SIMD3(1, 0, 2.5), direction: SIMD3(-1, 0, 0))
        #expect(abs(try #require(slanted.distance(to: cube)) - 0.5) < 1e-12)
        // Behind the camera: no hit. Inside: hit at 0.
        #expect(SceneRay(origin: .zero, direction: SIMD3(0, 0, -1)).distance(to: cube) == nil)
        #expect(SceneRay(origin: SIMD3(0, 0, 2.5), direction: SIMD3(0, 1, 0)).distance(to: cube) == 0)
        let behind = Fixtures.facingCamera("behind", .graffiti, at: SIMD3(0, 0, 5), size: SIMD3(4, 4, 0))
        #expect(ray.nearestHit(in: [behind, cube])?.object.id == "cube")
    }
}
