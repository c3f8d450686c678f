// The localizer's search decisions, without images: attempts and verdicts are labels.
@testable import Localization
import Testing

private typealias Machine = GlobalSearchStateMachine<String, String>

/// A compact picture of an action, to compare sequences.
private func describe(_ action: Machine.Action) -> String {
    switch action {
    case .search(.words): "words"
    case .search(.probes): "probes"
    case .search(.everyPoint): "everyPoint"
    case .search(.place(let k)): "place\(k)"
    case .search(.placeProbes(let k, _)): "placeProbes\(k)"
    case .findPlaces: "findPlaces"
    case .growAndJudge(let a): "grow \(a)"
    case .finish(let v): "finish \(v)"
    case .finishWithoutPose(let a): "none \(a ?? "-")"
    }
}

private let probes = VocabularyProbes()

struct GlobalSearchStateMachineTests {
    @Test func anAcceptedPoseFromTheWordSearchStopsTheFrame() {
        var m = Machine(probes: probes, placeSearch: false, maxPlaces: 3, seedInliers: 8)
        #expect(describe(m.start()) == "words")
        #expect(describe(m.searched("w", inliers: 30)) == "grow w")
        #expect(describe(m.judged("W", accepted: true, log10NFA: -20)) == "finish W")
    }

    @Test func aRejectedPoseLetsTheProbeSearchRunAndTheStrongerEvidenceIsKept() {
        var m = Machine(probes: probes, placeSearch: false, maxPlaces: 3, seedInliers: 8)
        #expect(m.plannedSearches == 2)
        _ = m.start()
        #expect(describe(m.searched("w", inliers: 12)) == "grow w")
        #expect(describe(m.judged("W", accepted: false, log10NFA: -1)) == "probes")
        #expect(describe(m.searched("p", inliers: 10)) == "grow p")
        // Neither accepted: the verdict with the lower NFA answers.
        #expect(describe(m.judged("P", accepted: false, log10NFA: -2.5)) == "finish P")
    }

    @Test func aWeakerRejectedVerdictDoesNotReplaceAStrongerOne() {
        var m = Machine(probes: probes, placeSearch: false, maxPlaces: 3, seedInliers: 8)
        _ = m.start()
        _ = m.searched("w", inliers: 12)
        _ = m.judged("W", accepted: false, log10NFA: -2.5)
        _ = m.searched("p", inliers: 9)
        #expect(describe(m.judged("P", accepted: false, log10NFA: -1)) == "finish W")
    }

    @Test func posesUnderTheSeedCountAreNotJudgedAndTheStrongestAnswers() {
        var m = Machine(probes: probes, placeSearch: false, maxPlaces: 3, seedInliers: 8)
        _ = m.start()
        #expect(describe(m.searched("w", inliers: 5)) == "probes")
        #expect(describe(m.searched("p", inliers: 3)) == "none w")
    }

    @Test func onASmallMapEveryPointIsSearchedAfterTheWordsAndCountsAgainstChance() {
        var m = Machine(probes: nil, exhaustive: true, placeSearch: false, maxPlaces: 3, seedInliers: 8)
        #expect(m.plannedSearches == 2)
        #expect(describe(m.start()) == "words")
        #expect(describe(m.searched("w", inliers: 20)) == "grow w")
        #expect(describe(m.judged("W", accepted: false, log10NFA: -4)) == "everyPoint")
        #expect(describe(m.searched("e", inliers: 40)) == "grow e")
        #expect(describe(m.judged("E", accepted: true, log10NFA: -30)) == "finish E")
    }

    @Test func onASmallMapAnAcceptedWordPoseSkipsTheExhaustiveSearch() {
        var m = Machine(probes: nil, exhaustive: true, placeSearch: false, maxPlaces: 3, seedInliers: 8)
        _ = m.start()
        _ = m.searched("w", inliers: 60)
        #expect(describe(m.judged("W", accepted: true, log10NFA: -50)) == "finish W")
    }

    @Test func withoutAnIndexOnlyTheWordSearchRuns() {
        var m = Machine(probes: nil, placeSearch: false, maxPlaces: 3, seedInliers: 8)
        #expect(m.plannedSearches == 1)
        _ = m.start()
        #expect(describe(m.searched("w", inliers: 0)) == "none w")
    }

    @Test func placesAreSearchedAfterTheLastWholeMapSearchWordsThenProbes() {
        var m = Machine(probes: probes, placeSearch: true, maxPlaces: 3, seedInliers: 8)
        #expect(m.plannedSearches == 2 + 3 * 2)
        _ = m.start()
        #expect(describe(m.searched("w", inliers: 2)) == "probes")
        // The places are asked for after the probe search, before its pose is gated.
        #expect(describe(m.searched("p", inliers: 9)) == "findPlaces")
        #expect(describe(m.placesFound([[4, 5], [9]])) == "grow p")
        #expect(describe(m.judged("P", accepted: false, log10NFA: -1)) == "place[4, 5]")
        #expect(describe(m.searched("a", inliers: 1)) == "place[9]")
        #expect(describe(m.searched("b", inliers: 1)) == "placeProbes[4, 5]")
        #expect(describe(m.searched("c", inliers: 20)) == "grow c")
        #expect(describe(m.judged("C", accepted: true, log10NFA: -9)) == "finish C")
    }

    @Test func noPlaceFoundEndsTheFrameWithWhatTheWholeMapGave() {
        var m = Machine(probes: nil, placeSearch: true, maxPlaces: 3, seedInliers: 5)
        _ = m.start()
        #expect(describe(m.searched("w", inliers: 4)) == "findPlaces")
        #expect(describe(m.placesFound([])) == "none w")
    }

    @Test func anAcceptedPoseBeforeThePlacesSkipsThem() {
        var m = Machine(probes: nil, placeSearch: true, maxPlaces: 3, seedInliers: 5)
        _ = m.start()
        #expect(describe(m.searched("w", inliers: 40)) == "findPlaces")
        #expect(describe(m.placesFound([[1]])) == "grow w")
        #expect(describe(m.judged("W", accepted: true, log10NFA: -30)) == "finish W")
    }

    @Test func aVenuesPartsAreEachSearchedOnceInsteadOfThePlacesAndCountAgainstChance() {
        var m = Machine(probes: probes, placeSearch: true, maxPlaces: 2, maxParts: 3, seedInliers: 8)
        // Two whole-map searches and a probe search per part; no place.
        #expect(m.plannedSearches == 2 + 3)
        _ = m.start()
        #expect(describe(m.searched("w", inliers: 0)) == "probes")
        #expect(describe(m.searched("p", inliers: 0)) == "findPlaces")
        #expect(describe(m.placesFound([[7]], parts: [[0, 1], [2, 3]])) == "placeProbes[0, 1]")
        #expect(describe(m.searched("a", inliers: 3)) == "placeProbes[2, 3]")
        #expect(describe(m.searched("b", inliers: 20)) == "grow b")
        #expect(describe(m.judged("B", accepted: false, log10NFA: -2)) == "finish B")
    }

    @Test func anAcceptedPoseInAPartStopsTheFrame() {
        var m = Machine(probes: probes, placeSearch: true, maxPlaces: 2, maxParts: 3, seedInliers: 8)
        _ = m.start()
        _ = m.searched("w", inliers: 0)
        _ = m.searched("p", inliers: 0)
        #expect(describe(m.placesFound([[7]], parts: [[0, 1], [2, 3], [4, 5]])) == "placeProbes[0, 1]")
        #expect(describe(m.searched("a", inliers: 20)) == "grow a")
        #expect(describe(m.judged("A", accepted: true, log10NFA: -12)) == "finish A")
    }

    @Test func withoutAnIndexAPartIsSearchedWithTheWords() {
        var m = Machine(probes: nil, placeSearch: true, maxPlaces: 1, maxParts: 2, seedInliers: 8)
        #expect(m.plannedSearches == 1 + 2)
        _ = m.start()
        #expect(describe(m.searched("w", inliers: 0)) == "findPlaces")
        #expect(describe(m.placesFound([[4]], parts: [[0, 1], [2, 3]])) == "place[0, 1]")
        #expect(describe(m.searched("a", inliers: 0)) == "place[2, 3]")
        // No search reached a pose: the first of the equally empty attempts answers.
        #expect(describe(m.searched("b", inliers: 0)) == "none w")
    }

    @Test func aLocationPriorsKeyframesAreSearchedFirstAndAnAcceptedPoseThereStopsTheFrame() {
        var m = Machine(probes: probes, placeSearch: true, maxPlaces: 3, seedInliers: 8, region: [4, 5])
        // Two region searches, two whole-map searches, three places with words and probes.
        #expect(m.plannedSearches == 2 + 2 + 6)
        #expect(describe(m.start()) == "place[4, 5]")
        #expect(describe(m.searched("r", inliers: 30)) == "grow r")
        #expect(describe(m.judged("R", accepted: true, log10NFA: -20)) == "finish R")
        #expect(m.answeredWithinRegion)
    }

    @Test func aLocationPriorThatPlacesNothingLeavesTheWholeMapToAnswer() {
        var m = Machine(probes: probes, placeSearch: false, maxPlaces: 3, seedInliers: 8, region: [7])
        #expect(describe(m.start()) == "place[7]")
        #expect(describe(m.searched("r", inliers: 12)) == "grow r")
        // Rejected within the prior: its probes, then the whole map.
        #expect(describe(m.judged("R", accepted: false, log10NFA: -1)) == "placeProbes[7]")
        #expect(describe(m.searched("rp", inliers: 2)) == "words")
        #expect(describe(m.searched("w", inliers: 40)) == "grow w")
        #expect(describe(m.judged("W", accepted: true, log10NFA: -30)) == "finish W")
        #expect(!m.answeredWithinRegion)
    }

    @Test func aRejectedVerdictFromThePriorThatStaysStrongestIsMarkedAsTheRegions() {
        var m = Machine(probes: nil, placeSearch: false, maxPlaces: 3, seedInliers: 8, region: [1])
        _ = m.start()
        _ = m.searched("r", inliers: 12)
        #expect(describe(m.judged("R", accepted: false, log10NFA: -2.5)) == "words")
        _ = m.searched("w", inliers: 9)
        #expect(describe(m.judged("W", accepted: false, log10NFA: -1)) == "finish R")
        #expect(m.answeredWithinRegion)
    }
}
