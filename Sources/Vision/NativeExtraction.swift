import VisionCore

/// The call both C extractors (`vc_orb_extract`, `vc_sift_extract`) share: caller-owned
/// keypoint and descriptor buffers of `capacity` entries, filled up to a count.
enum NativeExtraction {
    /// `extract(pixels, keypoints, descriptors, capacity, &count)` into `features`, reusing
    /// the arrays' capacity and `keypoints` (the extractor's scratch) between frames.
    static func run(_ image: GrayImage, capacity: Int, keypoints: inout [vc_keypoint], into features: inout FeatureSet,
                    _ extract: (UnsafePointer<UInt8>?, UnsafeMutablePointer<vc_keypoint>?, UnsafeMutablePointer<UInt8>?,
                                Int32, UnsafeMutablePointer<Int32>) -> vc_status) -> Result<Void, VisionError> {
        if keypoints.count < capacity {
            keypoints = [vc_keypoint](repeating: vc_keypoint(), count: capacity)
        }
        features.descriptors.removeAll(keepingCapacity: true)
        features.descriptors.append(contentsOf: repeatElement(0, count: capacity * FeatureSet.descriptorBytes))
        var count: Int32 = 0
        let status = image.pixels.withUnsafeBufferPointer { px in
            keypoints.withUnsafeMutableBufferPointer { kp in
                features.descriptors.withUnsafeMutableBufferPointer { desc in
                    extract(px.baseAddress, kp.baseAddress, desc.baseAddress, Int32(capacity), &count)
                }
            }
        }
        if status != VC_OK { return .failure(VisionError.from(status)) }
        let n = Int(count)
        features.descriptors.removeLast(features.descriptors.count - n * FeatureSet.descriptorBytes)
        features.keypoints.removeAll(keepingCapacity: true)
        features.keypoints.reserveCapacity(n)
        for k in keypoints.prefix(n) {
            features.keypoints.append(Keypoint(x: k.x, y: k.y, size: k.size, angle: k.angle,
                                               response: k.response, octave: Int(k.octave)))
        }
        return .success(())
    }
}
