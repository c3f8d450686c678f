import Foundation
import GraffityARCloud
import Simulation
import Testing

@Suite struct SimulationJSONTests {
    @Test func objectsKeepTheirFieldOrderAndNumbersTheirShortestForm() {
        let line = JSONLineValue.object([("z", .integer(1)), ("a", .number(2)), ("m", .number(0.25)),
                                         ("n", .number(.nan)), ("s", .string("a\"b")), ("l", .array([.bool(true), .null]))])
        #expect(line.text == #"{"z":1,"a":2,"m":0.25,"n":null,"s":"a\"b","l":[true,null]}"#)
        #expect(SimulationJSON.number(1.23456, places: 3).text == "1.235")
    }

    @Test func aStateSnapshotListsItsFieldsInTheDocumentedOrder() {
        let state = GraffityARCloud.State(isSceneReady: true, vpsState: .localized(sectionId: "room-a"),
                                          lastError: .invalidAccessToken)
        let text = JSONLineValue.object(SimulationJSON.stateFields(state)).text
        #expect(text.hasPrefix(#"{"isSceneReady":true,"vpsState":"localized","sectionId":"room-a","navigation":null,"#
                               + #""lastError":{"code":"invalidAccessToken","message":"#))
        #expect(text.hasSuffix(#""isShutDown":false}"#))
    }

    @Test func expectationsParseFromAListAndHoldOnTheFinalState() throws {
        #expect(try SimulationExpectation.parse("localized, noError") == [.localized, .noError])
        do { _ = try SimulationExpectation.parse("localized,foo"); Issue.record("foo was accepted") } catch {
            #expect(error.description.hasPrefix("unknown --expect 'foo'; use one or more of localized,localizing,"))
        }
        let state = GraffityARCloud.State(isSceneReady: true, vpsState: .localized(sectionId: "room-a"))
        #expect(SimulationExpectation.localized.holds(for: state, isShutDown: false))
        #expect(SimulationExpectation.sceneReady.holds(for: state, isShutDown: false))
        #expect(!SimulationExpectation.shutdown.holds(for: state, isShutDown: false))
        #expect(SimulationExpectation.invalidAccessToken.expectsError && !SimulationExpectation.arrived.expectsError)
    }
}
