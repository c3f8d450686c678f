import Foundation
import Geometry
import MapModel
import Vision
import VPSModel

/// Joins maps captured separately into one venue map: each part is placed by a rigid
/// transform, its points, keyframes, observations and scene are carried over, and one
/// vocabulary is trained on every view descriptor so that retrieval ranks all parts on
/// one scale.
///
/// Parts are not matched against each other: the placements say where each part lies.
/// Section, object and navigation-node ids are prefixed with the part's name
/// (`gallery/room-1`) so that parts with the same ids stay apart.
public struct MapMerger: Sendable {
    /// One map and where it lies in the venue.
    public struct Part: Sendable {
        public var map: VPSMap
        /// Part frame → venue frame (a rotation and a translation; no scale).
        public var placement: Pose
        /// Prefix of the part's section, object and node ids; the map's name by default.
        public var name: String

        public init(map: VPSMap, placement: Pose, name: String? = nil) {
            self.map = map; self.placement = placement; self.name = name ?? map.metadata.name
        }
    }

    /// Why parts cannot be merged.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// View descriptors per vocabulary word, as `MapBuildOptions.pointsPerWord`.
    public var pointsPerWord: Double

    public init(pointsPerWord: Double = MapBuildOptions().pointsPerWord) {
        self.pointsPerWord = pointsPerWord
    }

    /// The venue map of `parts`, named `name`.
    ///
    /// Every part must have the same units, up direction (after its placement's rotation)
    /// and feature type, and distinct names: a venue in metres cannot hold a part of unknown
    /// scale, gravity means one thing across the venue, and a query is described one way.
    public func merge(_ parts: [Part], name: String) throws -> VPSMap {
        guard let first = parts.first else { throw Refusal("nothing to merge: give at least one map") }
        let names = parts.map(\.name)
        if Set(names).count != names.count { throw Refusal("two parts have the same name; name each part apart") }
        let units = first.map.metadata.units
        if let odd = parts.first(where: { $0.map.metadata.units != units }) {
            throw Refusal("'\(odd.name)' is in \(odd.map.metadata.units), '\(first.name)' in \(units): "
                          + "parts of a venue share one unit")
        }
        let up = try Self.venueUp(parts)
        let featureType = first.map.metadata.featureType
        if let odd = parts.first(where: { $0.map.metadata.featureType != featureType }) {
            throw Refusal("'\(odd.name)' has \(odd.map.metadata.featureType) features, '\(first.name)' \(featureType): "
                          + "parts of a venue share one feature type")
        }

        var keyframes: [MapKeyframe] = []
        var observations: [MapObservation] = []
        var positions: [Double] = [], descriptors: [UInt8] = [], counts: [UInt32] = [], sections: [Int32] = []
        var viewDescriptors: [UInt8] = [], viewPoints: [UInt32] = []
        var simulatedDescriptors: [UInt8] = [], simulatedPoints: [UInt32] = []
        var scene = SceneContent()
        for part in parts {
            let map = part.map
            let pointBase = UInt32(counts.count), keyframeBase = UInt32(keyframes.count)
            let sectionBase = Int32(scene.sections.count)
            for k in map.keyframes {
                var placed = k
                placed.pose = part.placement * k.pose
                placed.section = k.section.map { $0 + Int(sectionBase) }
                keyframes.append(placed)
            }
            for o in map.observations {
                observations.append(MapObservation(point: o.point + pointBase, keyframe: o.keyframe + keyframeBase,
                                                   pixel: o.pixel, octave: o.octave))
            }
            for i in 0..<map.points.count {
                let p = part.placement.apply(map.points.position(i))
                positions += [p.x, p.y, p.z]
                let s = map.points.sections[i]
                sections.append(s < 0 ? -1 : s + sectionBase)
            }
            descriptors += map.points.descriptors
            counts += map.points.observationCounts
            viewDescriptors += map.viewDescriptors.descriptors
            viewPoints += map.viewDescriptors.points.map { $0 + pointBase }
            simulatedDescriptors += map.simulatedViewDescriptors.descriptors
            simulatedPoints += map.simulatedViewDescriptors.points.map { $0 + pointBase }
            Self.append(map.scene, of: part, to: &scene)
        }
        if let problem = scene.problem { throw Refusal("the merged scene is inconsistent: \(problem)") }

        let vocabulary = try Vocabulary.train(
            descriptors: viewDescriptors,
            parameters: .adaptive(descriptorCount: viewPoints.count, pointsPerWord: pointsPerWord))
        let points = MapPoints(positions: positions, descriptors: descriptors, observationCounts: counts,
                               words: vocabulary.words(for: descriptors), sections: sections)
        let views = MapViewDescriptors(descriptors: viewDescriptors, points: viewPoints,
                                       words: vocabulary.words(for: viewDescriptors))
        // A part's simulated views stay its points' own, still searched second.
        let simulated = MapViewDescriptors(descriptors: simulatedDescriptors, points: simulatedPoints,
                                           words: vocabulary.words(for: simulatedDescriptors))
        var builder = ["merged": names.joined(separator: ","), "pointsPerWord": "\(pointsPerWord)"]
        for part in parts {
            let t = part.placement.translation
            builder["placement.\(part.name)"] = "\(t.x),\(t.y),\(t.z) q \(part.placement.rotation)"
        }
        let metadata = MapMetadata(name: name, camera: first.map.metadata.camera,
                                   source: "merge of " + names.joined(separator: ", "),
                                   builder: builder, units: units, up: up, featureType: featureType)
        return try VPSMap(metadata: metadata, scene: scene, keyframes: keyframes, points: points,
                          observations: observations, vocabulary: vocabulary, viewDescriptors: views,
                          simulatedViewDescriptors: simulated)
    }

    /// The venue's up: every part's up, rotated into the venue, within 1°; unknown only
    /// when every part's is.
    static func venueUp(_ parts: [Part]) throws -> MapUpDirection {
        let ups = parts.map { p in p.map.metadata.up.vector.map { p.placement.rotation.rotate($0) } }
        if ups.allSatisfy({ $0 == nil }) { return .unknown }
        guard let reference = ups[0], ups.allSatisfy({ $0 != nil }) else {
            throw Refusal("some parts have a known up and some do not: give each part's up (map build --up)")
        }
        for (part, u) in zip(parts, ups) where angleDegrees(between: u!, and: reference) > 1 {
            throw Refusal("'\(part.name)''s up, placed, is \(angleDegrees(between: u!, and: reference))° "
                          + "from '\(parts[0].name)''s: a placement must keep gravity")
        }
        return .known(reference)
    }

    /// Appends a part's sections, objects and navigation graph, placed and with prefixed ids.
    static func append(_ content: SceneContent, of part: Part, to scene: inout SceneContent) {
        let id = { (s: String) in "\(part.name)/\(s)" }
        for var s in content.sections {
            s.id = id(s.id)
            if let lo = s.boundsMin, let hi = s.boundsMax {
                // The box around the placed box's corners: still holds every point it held.
                let corners = (0..<8).map { c in
                    part.placement.apply(SIMD3(c & 1 == 0 ? lo.x : hi.x, c & 2 == 0 ? lo.y : hi.y,
                                               c & 4 == 0 ? lo.z : hi.z))
                }
                s.boundsMin = corners.dropFirst().reduce(corners[0]) { pointwiseMin($0, $1) }
                s.boundsMax = corners.dropFirst().reduce(corners[0]) { pointwiseMax($0, $1) }
            }
            scene.sections.append(s)
        }
        for var o in content.objects {
            o.id = id(o.id); o.sectionId = id(o.sectionId)
            o.pose = part.placement * o.pose
            scene.objects.append(o)
        }
        for var n in content.navigation.nodes {
            n.id = id(n.id); n.sectionId = id(n.sectionId)
            n.position = part.placement.apply(n.position)
            scene.navigation.nodes.append(n)
        }
        for var e in content.navigation.edges {
            e.from = id(e.from); e.to = id(e.to)
            scene.navigation.edges.append(e)
        }
    }
}
