import Support
import VisionCore

/// One C extractor (`vc_orb_*` or `vc_sift_*`, by `type`) made with `options`: its handle,
/// destroyed with the object, and the scratch keypoints its calls fill, behind a `Locked`
/// so that calls run one at a time. Both C extractors share the extraction call:
/// caller-owned keypoint and descriptor buffers of `capacity` entries, filled up to a count.
final class NativeExtractor: Sendable {
    let type: FeatureType
    let options: ORBOptions
    private struct State: ~Copyable {
        let handle: OpaquePointer
        var keypoints: [vc_keypoint]
    }
    private let state: Locked<State>

    /// Creates the C extractor; its own create call refuses options out of range.
    init(_ type: FeatureType, options: ORBOptions) throws(VisionError) {
        var handle: OpaquePointer?
        switch type {
        case .orb:
            var p = vc_orb_params()
            p.n_features = Int32(clamping: options.featureCount)
            p.scale_factor = options.scaleFactor
            p.n_levels = Int32(clamping: options.levels)
            p.ini_fast_threshold = Int32(clamping: options.initialFASTThreshold)
            p.min_fast_threshold = Int32(clamping: options.minimumFASTThreshold)
            p.cell_size = Int32(clamping: options.cellSize)
            try VisionError.check(vc_orb_create(&p, &handle))
        case .sift:
            var p = vc_sift_params()
            p.n_features = Int32(clamping: options.featureCount)
            p.scale_factor = options.scaleFactor
            p.n_levels = Int32(clamping: options.levels)
            try VisionError.check(vc_sift_create(&p, &handle))
        }
        guard let handle else { throw VisionError(.internalError, "the \(type) extractor was not created") }
        self.type = type
        self.options = options
        state = Locked(State(handle: handle, keypoints: []))
    }

    deinit {
        let type = type
        state.withLock { st in
            switch type {
            case .orb: vc_orb_destroy(st.handle)
            case .sift: vc_sift_destroy(st.handle)
            }
        }
    }

    /// Up to `options.featureCount` features of `image` into `features`, reusing the arrays'
    /// capacity and the scratch keypoints between frames.
    func extract(_ image: GrayImage, into features: inout FeatureSet) throws(VisionError) {
        let type = type, capacity = options.featureCount
        let status: vc_status = state.withLock { st in
            if st.keypoints.count < capacity {
                st.keypoints = [vc_keypoint](repeating: vc_keypoint(), count: capacity)
            }
            features.descriptors.removeAll(keepingCapacity: true)
            features.descriptors.append(contentsOf: repeatElement(0, count: capacity * FeatureSet.descriptorBytes))
            var count: Int32 = 0
            let handle = st.handle
            let (w, h) = (Int32(image.width), Int32(image.height))
            let status = image.pixels.withUnsafeBufferPointer { px in
                st.keypoints.withUnsafeMutableBufferPointer { kp in
                    features.descriptors.withUnsafeMutableBufferPointer { desc in
                        switch type {
                        case .orb: vc_orb_extract(handle, px.baseAddress, w, h, w, kp.baseAddress, desc.baseAddress,
                                                  Int32(capacity), &count)
                        case .sift: vc_sift_extract(handle, px.baseAddress, w, h, w, kp.baseAddress, desc.baseAddress,
                                                    Int32(capacity), &count)
                        }
                    }
                }
            }
            let n = status == VC_OK ? Int(count) : 0
            features.descriptors.removeLast(features.descriptors.count - n * FeatureSet.descriptorBytes)
            features.keypoints.removeAll(keepingCapacity: true)
            features.keypoints.reserveCapacity(n)
            for k in st.keypoints.prefix(n) {
                features.keypoints.append(Keypoint(x: k.x, y: k.y, size: k.size, angle: k.angle,
                                                   response: k.response, octave: Int(k.octave)))
            }
            return status
        }
        try VisionError.check(status)
    }
}
