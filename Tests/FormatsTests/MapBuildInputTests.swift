import Foundation
import MapModel
import Testing
import Formats
import TestSupport
import VPSModel

@Suite struct MapBuildInputTests {
    @Test func exactlyOneSourceIsChosenAndItsOwnOptionsGoWithIt() throws {
        func conflict(session: String? = nil, colmap: String? = nil, images: String? = nil, nerfstudio: String? = nil,
                      skipMissing: Bool = false) -> String? {
            do {
                _ = try MapBuildSource(session: session, colmap: colmap, images: images, nerfstudio: nerfstudio,
                                       skipMissing: skipMissing)
                return nil
            } catch { return error.description }
        }
        #expect(try MapBuildSource(session: "s", colmap: nil, images: nil, nerfstudio: nil, skipMissing: false)
                == .session(path: "s"))
        #expect(try MapBuildSource(session: nil, colmap: "m", images: "i", nerfstudio: nil, skipMissing: false)
                == .colmap(model: "m", images: "i"))
        #expect(try MapBuildSource(session: nil, colmap: nil, images: nil, nerfstudio: "t", skipMissing: true)
                == .nerfstudio(path: "t", skipMissing: true))
        #expect(conflict() == "give --session <dir>, --colmap <model-dir> or --nerfstudio <transforms.json>")
        #expect(conflict(session: "s", colmap: "m", nerfstudio: "t")
                == "give one of --session, --colmap, --nerfstudio, not --session and --colmap and --nerfstudio")
        #expect(conflict(colmap: "m", skipMissing: true) == "--skip-missing goes with --nerfstudio")
        #expect(conflict(session: "s", images: "i") == "--images goes with --colmap, not --session")
        #expect(conflict(images: "i", nerfstudio: "t")?.hasPrefix("--images goes with --colmap;") == true)
    }

    @Test func aSessionGivesItsPosedFramesInMetresWithYUp() throws {
        let dir = try ScratchDirectory("build-input")
        try DatasetFixtures.write(DatasetFixtures.session(), to: dir.url)
        let input = try MapBuildInput(.session(path: dir.url.path))
        #expect(input.frames.count == 3 && input.defaultName == "fixture" && input.sessionScene == nil)
        #expect(input.defaultUnits == .metres && input.defaultUp == .plusY)
        let metadata = input.metadata(name: nil, units: .unknown, up: nil)
        #expect(metadata.name == "fixture" && metadata.units == .unknown && metadata.up == .plusY)
    }

    @Test func aSessionWithoutPosesOrFolderFailsNamingIt() throws {
        let dir = try ScratchDirectory("build-input-unposed")
        var session = DatasetFixtures.session()
        for i in session.frames.indices { session.frames[i].pose = nil }
        try DatasetFixtures.write(session, to: dir.url)
        #expect(throws: MapBuildInput.Failure.self) { try MapBuildInput(.session(path: dir.url.path)) }
        do { _ = try MapBuildInput(.session(path: dir.url.path)) } catch {
            #expect("\(error)" == "\(dir.url.path): no frame has a ground-truth pose; a map needs posed frames")
        }
    }

    @Test func aNerfstudioCaptureIsInUnknownUnitsAndListsWhatItLeftOut() throws {
        let dir = try ScratchDirectory("build-input-ns")
        try NerfstudioImportTests.writeCapture(dir.url, missing: true)
        let input = try MapBuildInput(.nerfstudio(path: dir.url.path, skipMissing: true))
        #expect(input.frames.count == 2 && input.missing.count == 1)
        #expect(input.defaultUnits == .unknown && input.defaultUp == .unknown && input.sessionScene == nil)
        #expect(input.defaultName == dir.url.lastPathComponent)
    }

    @Test func aSceneDescriptionNamesTheMapAndOtherJSONIsRefused() throws {
        let dir = try ScratchDirectory("build-input-scene")
        try DatasetFixtures.write(DatasetFixtures.session(), to: dir.url)
        var input = try MapBuildInput(.session(path: dir.url.path))
        let notScene = dir.url.appendingPathComponent("session.json")
        #expect(throws: MapBuildInput.Failure.self) { try input.loadScene(from: notScene) }
        let scene = dir.url.appendingPathComponent("scene.json")
        try JSONEncoder().encode(SceneContent()).write(to: scene)
        try input.loadScene(from: scene)
        #expect(input.scene != nil && input.defaultName == "fixture")
    }
}
