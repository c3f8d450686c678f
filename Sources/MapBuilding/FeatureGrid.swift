/// Keypoints bucketed into square image cells, to visit only those inside a box.
struct FeatureGrid {
    static let cellSize = 32.0
    let columns: Int
    let rows: Int
    /// CSR: `offsets[cell]..<offsets[cell+1]` indexes `items`.
    private let offsets: [Int32]
    private let items: [Int32]

    init(points: [SIMD2<Double>], width: Int, height: Int) {
        let columns = max(1, Int((Double(width) / Self.cellSize).rounded(.up)))
        let rows = max(1, Int((Double(height) / Self.cellSize).rounded(.up)))
        self.columns = columns
        self.rows = rows
        let cells = points.map { p -> Int in
            let cx = min(max(Int(p.x / Self.cellSize), 0), columns - 1)
            let cy = min(max(Int(p.y / Self.cellSize), 0), rows - 1)
            return cy * columns + cx
        }
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        for c in cells { counts[c + 1] += 1 }
        for i in 0..<(columns * rows) { counts[i + 1] += counts[i] }
        var cursor = counts
        var items = [Int32](repeating: 0, count: points.count)
        for (i, c) in cells.enumerated() { items[Int(cursor[c])] = Int32(i); cursor[c] += 1 }
        offsets = counts
        self.items = items
    }

    /// Calls `body` with every point index whose cell meets the box `lo…hi` (pixels).
    func forEach(inBoxFrom lo: SIMD2<Double>, to hi: SIMD2<Double>, _ body: (Int) -> Void) {
        guard hi.x >= 0, hi.y >= 0, lo.x.isFinite, lo.y.isFinite, hi.x.isFinite, hi.y.isFinite else { return }
        let x0 = max(0, Int(lo.x / Self.cellSize)), y0 = max(0, Int(lo.y / Self.cellSize))
        let x1 = min(columns - 1, Int(hi.x / Self.cellSize)), y1 = min(rows - 1, Int(hi.y / Self.cellSize))
        guard x0 <= x1, y0 <= y1 else { return }
        for cy in y0...y1 {
            for cx in x0...x1 {
                let cell = cy * columns + cx
                for k in Int(offsets[cell])..<Int(offsets[cell + 1]) { body(Int(items[k])) }
            }
        }
    }
}
