/// Values grouped by an integer key, in CSR layout (a stable counting sort): the values
/// with key `k` are `values[offsets[k] ..< offsets[k + 1]]`, in input order. Used for the
/// map's lookup tables that localization builds once per map (vocabulary node → points,
/// point → keyframes).
struct GroupedByKey: Sendable {
    let offsets: [Int32]
    let values: [Int32]

    /// Groups `values[i]` under `keys[i]`; every key must lie in `0 ..< keyCount`.
    init(keys: [Int], values: [Int32], keyCount: Int) {
        precondition(keys.count == values.count, "one key per value")
        var offsets = [Int32](repeating: 0, count: keyCount + 1)
        for k in keys { offsets[k + 1] += 1 }
        for k in 0..<keyCount { offsets[k + 1] += offsets[k] }
        var fill = Array(offsets.dropLast())
        var grouped = [Int32](repeating: 0, count: values.count)
        for (k, v) in zip(keys, values) {
            grouped[Int(fill[k])] = v
            fill[k] += 1
        }
        self.offsets = offsets
        self.values = grouped
    }
}
