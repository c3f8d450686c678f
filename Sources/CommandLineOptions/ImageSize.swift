/// An image size as options give it: `WxH`, e.g. `--size 640x480`.
public struct ImageSize: Sendable, Equatable {
    /// Pixels.
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) { self.width = width; self.height = height }
}

extension ValueParser where Value == ImageSize {
    /// `WxH` (or `wXh`) with both sides in `sides`.
    public static func imageSize(sides: ClosedRange<Int> = 1...Int.max) -> ValueParser<ImageSize> {
        let needs = sides.upperBound == Int.max ? "needs WxH" : "needs WxH with sides \(sides.lowerBound)...\(sides.upperBound)"
        return ValueParser(placeholder: "WxH", describe: { "\($0.width)x\($0.height)" }) { text in
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 2, let w = parts[0], let h = parts[1], sides.contains(w), sides.contains(h) else {
                throw InvalidValue(needs)
            }
            return ImageSize(width: w, height: h)
        }
    }
}
