import Testing
import Evaluation

@Suite struct RunComparisonThresholdTests {
    @Test func optionsReplaceThePartsOfRunAsPrimaryThresholdInItsUnits() throws {
        let metric = ErrorThreshold.standard[0]
        let t = try RunComparison.changeThreshold(primary: metric, centimetres: 10, percent: nil, degrees: nil)
        #expect(t.translation == 0.1 && t.degrees == metric.degrees && t.sceneScaleShare == nil)
        let relative = ErrorThreshold(sceneScaleShare: 0.02, of: 5, degrees: 2)
        let r = try RunComparison.changeThreshold(primary: relative, centimetres: nil, percent: 4, degrees: 3)
        #expect(r.sceneScaleShare == 0.04 && r.degrees == 3)
        #expect(throws: RunComparison.ThresholdUnitsMistake.self) {
            try RunComparison.changeThreshold(primary: relative, centimetres: 5, percent: nil, degrees: nil)
        }
        #expect(throws: RunComparison.ThresholdUnitsMistake.self) {
            try RunComparison.changeThreshold(primary: metric, centimetres: nil, percent: 2, degrees: nil)
        }
    }

    @Test func runAWithoutASummaryIsScoredInMetres() throws {
        #expect(try RunComparison.primaryThreshold("a", nil, "b", nil) == ErrorThreshold.standard[0])
    }
}
