import VPSModel

/// The JSON of a localize answer, written directly: the same object `JSONEncoder` with
/// sorted keys makes (keys in the same order, optionals left out when nil), in about a
/// quarter of the time (docs/service.md has the measurement).
///
/// Numbers use Swift's shortest round-trip form (`12.0` where Foundation writes `12`; both
/// read back as the same Double). Returns nil for a non-finite number, which JSON cannot
/// carry: the caller then falls back to `JSONEncoder` and its error handling.
enum LocalizeAnswerJSON {
    static func encode(_ r: LocalizeResponse) -> [UInt8]? {
        var out = "{"
        var first = true
        func key(_ k: String) {
            out += first ? "\"\(k)\":" : ",\"\(k)\":"
            first = false
        }
        func number(_ d: Double) -> Bool {
            guard d.isFinite else { return false }
            out += d.description
            return true
        }
        func numbers(_ values: [Double]) -> Bool {
            out += "["
            for (i, v) in values.enumerated() {
                if i > 0 { out += "," }
                guard number(v) else { return false }
            }
            out += "]"
            return true
        }
        /// An object of numbers, its keys already in sorted order.
        func object(_ fields: [(String, Double)]) -> Bool {
            out += "{"
            for (i, (name, value)) in fields.enumerated() {
                out += (i > 0 ? ",\"" : "\"") + name + "\":"
                guard number(value) else { return false }
            }
            out += "}"
            return true
        }
        if let a = r.accuracy {
            key("accuracy")
            guard object([("position", a.position), ("rotationDegrees", a.rotationDegrees)]) else { return nil }
        }
        if let a = r.geoAccuracy {
            key("geoAccuracy")
            guard object([("position", a.position), ("rotationDegrees", a.rotationDegrees)]) else { return nil }
        }
        if let g = r.geoPose {
            key("geoPose")
            let p = g.position, q = g.quaternion
            out += "{\"position\":"
            guard object([("h", p.height), ("lat", p.latitude), ("lon", p.longitude)]) else { return nil }
            out += ",\"quaternion\":"
            guard object([("w", q.w), ("x", q.x), ("y", q.y), ("z", q.z)]) else { return nil }
            out += "}"
        }
        key("inliers"); out += String(r.inliers)
        if let u = r.locationPrior { key("locationPrior"); out += JSONLiteral.string(u.rawValue) }
        key("mapId"); out += JSONLiteral.string(r.mapId)
        if let v = r.mapVersion { key("mapVersion"); out += JSONLiteral.string(v) }
        if let m = r.matches { key("matches"); out += String(m) }
        if let p = r.pose {
            key("pose")
            out += "{\"q\":"
            guard numbers([p.rotation.x, p.rotation.y, p.rotation.z, p.rotation.w]) else { return nil }
            out += ",\"t\":"
            guard numbers([p.translation.x, p.translation.y, p.translation.z]) else { return nil }
            out += "}"
        }
        if let why = r.reason { key("reason"); out += JSONLiteral.string(why) }
        if let e = r.reprojectionError { key("reprojectionError"); guard number(e) else { return nil } }
        if let s = r.sectionId { key("sectionId"); out += JSONLiteral.string(s) }
        key("status"); out += JSONLiteral.string(r.status.rawValue)
        key("timings")
        out += "{"
        for (i, (name, ms)) in r.timings.sorted(by: { $0.key < $1.key }).enumerated() {
            out += (i > 0 ? "," : "") + JSONLiteral.string(name) + ":"
            guard number(ms) else { return nil }
        }
        out += "}"
        if let u = r.usedPrior { key("usedPrior"); out += u ? "true" : "false" }
        out += "}"
        return Array(out.utf8)
    }
}
