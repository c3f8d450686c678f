import VisionCore

/// Why a vocabulary could not be trained or read.
public enum VocabularyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input cannot train a vocabulary (no descriptors, a length not a multiple of 32,
    /// parameters out of range).
    case invalidInput(String)
    /// Serialized bytes that are not a vocabulary, or a damaged one.
    case corrupt
    case outOfMemory
    case `internal`

    public var description: String {
        switch self {
        case .invalidInput(let why): "invalid vocabulary input: \(why)"
        case .corrupt: "vocabulary data is damaged or not a vocabulary"
        case .outOfMemory: "out of memory building the vocabulary"
        case .internal: "internal error in the vocabulary code"
        }
    }

    init(status: vc_status, what: String) {
        switch status {
        case VC_ERR_DECODE: self = .corrupt
        case VC_ERR_OUT_OF_MEMORY: self = .outOfMemory
        case VC_ERR_INVALID_ARGUMENT: self = .invalidInput(what)
        default: self = .internal
        }
    }
}

/// A hierarchical k-majority vocabulary of 32-byte ORB descriptors (DBoW2-style): a tree
/// whose leaves are the *words*. The map builder trains one per map; the localizer
/// quantises query descriptors to words and finds map points with the same word, or with
/// the same ancestor node at a coarser depth.
///
/// Immutable once made; all methods may be called from many tasks at once.
public final class Vocabulary: @unchecked Sendable {
    // @unchecked: the C object is never mutated after creation, and the C ABI documents
    // every const-taking function as safe to call concurrently.

    /// Training parameters.
    public struct Parameters: Sendable, Hashable {
        /// Children per node (k).
        public var branching: Int
        /// Maximum depth below the root (L); nodes with ≤ k descriptors stop early.
        public var levels: Int
        /// k-majority iterations per split (stops earlier when assignments are stable).
        public var iterations: Int
        /// Seed of k-means++ seeding: same descriptors and seed give the same vocabulary.
        public var seed: UInt64

        public init(branching: Int = 10, levels: Int = 4, iterations: Int = 10, seed: UInt64 = 0x5EED) {
            self.branching = branching; self.levels = levels; self.iterations = iterations; self.seed = seed
        }

        /// Levels for `count` descriptors so that leaves hold about `pointsPerWord` each
        /// (k^L ≈ count / pointsPerWord), between 1 and 6.
        public static func adaptive(descriptorCount count: Int, branching: Int = 10,
                                    pointsPerWord: Double = 8) -> Parameters {
            let leaves = max(Double(count) / pointsPerWord, 1)
            var levels = 1
            var capacity = Double(branching)
            while capacity < leaves && levels < 6 { levels += 1; capacity *= Double(branching) }
            return Parameters(branching: branching, levels: levels)
        }
    }

    /// Bytes per descriptor.
    public static let descriptorBytes = 32

    let handle: OpaquePointer

    private init(handle: OpaquePointer) { self.handle = handle }
    deinit { vc_vocab_free(handle) }

    /// Trains on `descriptors`: `count × 32` bytes, one descriptor after another.
    public static func train(descriptors: [UInt8], parameters: Parameters = .init()) throws -> Vocabulary {
        guard !descriptors.isEmpty, descriptors.count % descriptorBytes == 0 else {
            throw VocabularyError.invalidInput("\(descriptors.count) bytes is not a positive multiple of 32")
        }
        var p = vc_vocab_params(branching: Int32(clamping: parameters.branching), levels: Int32(clamping: parameters.levels),
                                iterations: Int32(clamping: parameters.iterations), seed: parameters.seed)
        var out: OpaquePointer?
        let status = descriptors.withUnsafeBufferPointer {
            vc_vocab_train($0.baseAddress, descriptors.count / descriptorBytes, &p, &out)
        }
        guard status == VC_OK, let out else {
            throw VocabularyError(status: status, what: "parameters out of range (branching 2…64, levels 1…8, iterations ≥ 1)")
        }
        return Vocabulary(handle: out)
    }

    /// Reads a vocabulary from `serialized()` bytes; validates the structure.
    public convenience init(serialized bytes: [UInt8]) throws {
        var out: OpaquePointer?
        let status = bytes.withUnsafeBufferPointer { vc_vocab_deserialize($0.baseAddress, bytes.count, &out) }
        guard status == VC_OK, let out else {
            throw status == VC_ERR_INVALID_ARGUMENT ? VocabularyError.corrupt : VocabularyError(status: status, what: "")
        }
        self.init(handle: out)
    }

    /// The versioned, little-endian byte form (stored in maps).
    public func serialized() -> [UInt8] {
        let size = vc_vocab_serialized_size(handle)
        return [UInt8](unsafeUninitializedCapacity: size) { buf, n in
            var written = 0
            _ = vc_vocab_serialize(handle, buf.baseAddress, size, &written)
            n = written
        }
    }

    /// Number of words (leaves), numbered `0..<wordCount`.
    public var wordCount: Int { Int(vc_vocab_word_count(handle)) }
    /// Number of tree nodes including the root (node 0).
    public var nodeCount: Int { Int(vc_vocab_node_count(handle)) }
    /// Depth of the deepest leaf.
    public var depth: Int { Int(vc_vocab_depth(handle)) }

    public var parameters: Parameters {
        let p = vc_vocab_get_params(handle)
        return Parameters(branching: Int(p.branching), levels: Int(p.levels), iterations: Int(p.iterations), seed: p.seed)
    }

    /// The word of each descriptor (`count × 32` bytes in, `count` words out).
    public func words(for descriptors: UnsafeRawBufferPointer) -> [UInt32] {
        quantize(descriptors, nodeDepth: nil).words
    }

    public func words(for descriptors: [UInt8]) -> [UInt32] {
        descriptors.withUnsafeBytes { words(for: $0) }
    }

    /// Words and, when `nodeDepth` is given, each descriptor's node at that depth
    /// (1 = children of the root; the leaf itself when shallower).
    public func quantize(_ descriptors: UnsafeRawBufferPointer, nodeDepth: Int?) -> (words: [UInt32], nodes: [UInt32]) {
        let n = descriptors.count / Self.descriptorBytes
        guard n > 0 else { return ([], []) }
        let base = descriptors.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var nodes = [UInt32](repeating: 0, count: nodeDepth == nil ? 0 : n)
        var words = [UInt32](repeating: 0, count: n)
        words.withUnsafeMutableBufferPointer { w in
            nodes.withUnsafeMutableBufferPointer { nd in
                _ = vc_vocab_quantize(handle, base, n, w.baseAddress, Int32(clamping: nodeDepth ?? 0),
                                      nodeDepth == nil ? nil : nd.baseAddress)
            }
        }
        return (words, nodes)
    }

    /// Multi-probe quantization: per descriptor, the nodes at `nodeDepth` whose path from the
    /// root is at most `slackBits` worse than the plain descent's (summing, level by level,
    /// how much farther the node taken is than its closest sibling); at most `maxProbes`
    /// (1...64), the plain descent's node first, then the least worse. CSR layout:
    /// descriptor i's nodes are `nodes[offsets[i] ..< offsets[i + 1]]`.
    public func probes(_ descriptors: UnsafeRawBufferPointer, nodeDepth: Int, maxProbes: Int,
                       slackBits: Int) -> (offsets: [Int32], nodes: [UInt32]) {
        let n = descriptors.count / Self.descriptorBytes
        guard n > 0 else { return ([0], []) }
        let probes = min(max(maxProbes, 1), 64)
        let base = descriptors.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var offsets = [Int32](repeating: 0, count: n + 1)
        var nodes = [UInt32](repeating: 0, count: n * probes)
        offsets.withUnsafeMutableBufferPointer { o in
            nodes.withUnsafeMutableBufferPointer { nd in
                _ = vc_vocab_quantize_probes(handle, base, n, Int32(clamping: nodeDepth), Int32(probes),
                                             Int32(clamping: max(slackBits, 0)), o.baseAddress, nd.baseAddress,
                                             nd.count)
            }
        }
        nodes.removeLast(nodes.count - Int(offsets[n]))
        return (offsets, nodes)
    }

    /// Each descriptor's node at `depth` (the leaf itself when shallower), as `quantize`
    /// gives it, without descending further: what a search grouped by those nodes needs.
    public func nodes(for descriptors: UnsafeRawBufferPointer, atDepth depth: Int) -> [UInt32] {
        let n = descriptors.count / Self.descriptorBytes
        guard n > 0 else { return [] }
        let base = descriptors.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var nodes = [UInt32](repeating: 0, count: n)
        nodes.withUnsafeMutableBufferPointer { nd in
            _ = vc_vocab_quantize(handle, base, n, nil, Int32(clamping: depth), nd.baseAddress)
        }
        return nodes
    }

    /// The node at `depth` on the path from the root to `word` (the word's own node when
    /// shallower): group stored words by the same coarse node the query gets from `quantize`.
    public func ancestor(ofWord word: UInt32, atDepth depth: Int) -> UInt32 {
        var node: UInt32 = 0
        _ = vc_vocab_word_ancestor(handle, word, Int32(clamping: depth), &node)
        return node
    }
}
