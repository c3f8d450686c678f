extension SceneContent {
    /// The first reason this content cannot go into a map (duplicate ids, references to
    /// unknown sections or nodes, a link without a `url`, non-finite numbers), or nil.
    public var problem: String? {
        func duplicate(_ ids: [String]) -> String? {
            var seen = Set<String>()
            return ids.first { !seen.insert($0).inserted }
        }
        if let d = duplicate(sections.map(\.id)) { return "section id '\(d)' is used twice" }
        if let d = duplicate(objects.map(\.id)) { return "object id '\(d)' is used twice" }
        if let d = duplicate(navigation.nodes.map(\.id)) { return "navigation node id '\(d)' is used twice" }
        let sectionIds = Set(sections.map(\.id))
        for s in sections {
            if s.id.isEmpty { return "a section has an empty id" }
            switch (s.boundsMin, s.boundsMax) {
            case (nil, nil): break
            case let (lo?, hi?):
                let all = [lo.x, lo.y, lo.z, hi.x, hi.y, hi.z]
                if !all.allSatisfy(\.isFinite) { return "section '\(s.id)' has non-finite bounds" }
                if lo.x > hi.x || lo.y > hi.y || lo.z > hi.z { return "section '\(s.id)' has boundsMin above boundsMax" }
            default: return "section '\(s.id)' needs both boundsMin and boundsMax, or neither"
            }
        }
        for o in objects {
            if o.id.isEmpty { return "an object has an empty id" }
            if !sectionIds.isEmpty && !sectionIds.contains(o.sectionId) {
                return "object '\(o.id)' is in unknown section '\(o.sectionId)'"
            }
            let e = o.extent
            if !(e.x.isFinite && e.y.isFinite && e.z.isFinite) || e.x < 0 || e.y < 0 || e.z < 0 {
                return "object '\(o.id)' has an invalid extent"
            }
            if o.kind == .link && (o.payload["url"] ?? "").isEmpty { return "link object '\(o.id)' needs a 'url' in its payload" }
        }
        let nodeIds = Set(navigation.nodes.map(\.id))
        for n in navigation.nodes {
            if n.id.isEmpty { return "a navigation node has an empty id" }
            if !(n.position.x.isFinite && n.position.y.isFinite && n.position.z.isFinite) {
                return "navigation node '\(n.id)' has a non-finite position"
            }
            if !sectionIds.isEmpty && !sectionIds.contains(n.sectionId) {
                return "navigation node '\(n.id)' is in unknown section '\(n.sectionId)'"
            }
        }
        for e in navigation.edges {
            if !nodeIds.contains(e.from) || !nodeIds.contains(e.to) {
                return "navigation edge \(e.from)–\(e.to) names an unknown node"
            }
            if !e.weight.isFinite || e.weight < 0 { return "navigation edge \(e.from)–\(e.to) has an invalid weight" }
        }
        return nil
    }
}
