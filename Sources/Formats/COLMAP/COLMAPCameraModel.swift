import Geometry

/// COLMAP's camera models: their ids (as in the binary files), parameter counts, and the
/// conversion of those arcloud's pinhole camera with OpenCV distortion can express.
public enum COLMAPCameraModel {
    /// Every model COLMAP defines, by id: name and number of parameters.
    public static let all: [(id: Int, name: String, parameters: Int)] = [
        (0, "SIMPLE_PINHOLE", 3), (1, "PINHOLE", 4), (2, "SIMPLE_RADIAL", 4), (3, "RADIAL", 5),
        (4, "OPENCV", 8), (5, "OPENCV_FISHEYE", 8), (6, "FULL_OPENCV", 12), (7, "FOV", 5),
        (8, "SIMPLE_RADIAL_FISHEYE", 4), (9, "RADIAL_FISHEYE", 5), (10, "THIN_PRISM_FISHEYE", 12),
        (11, "RAD_TAN_THIN_PRISM_FISHEYE", 16),
    ]

    /// The models arcloud reads as they are.
    public static let supported = ["SIMPLE_PINHOLE", "PINHOLE", "SIMPLE_RADIAL", "RADIAL", "OPENCV"]

    static func parameterCount(of name: String) -> Int? { all.first { $0.name == name }?.parameters }
    static func name(ofId id: Int) -> String? { all.first { $0.id == id }?.name }

    /// Why a camera cannot be used.
    struct Unsupported: Error { var message: String }

    /// Pinhole intrinsics with OpenCV `k1 k2 p1 p2 [k3]` distortion. FULL_OPENCV is read
    /// when its rational terms (k4–k6) are zero; fisheye models and FOV are refused with a
    /// message naming the model and how to get a pinhole model (COLMAP's undistorter).
    static func intrinsics(model: String, width: Int, height: Int, params p: [Double]) throws -> CameraIntrinsics {
        guard let need = parameterCount(of: model) else {
            throw Unsupported(message: "camera model '\(model)' is not a COLMAP model this build knows "
                              + "(it reads \(supported.joined(separator: ", ")))")
        }
        guard p.count == need else { throw Unsupported(message: "\(model) needs \(need) parameters, got \(p.count)") }
        guard p.allSatisfy(\.isFinite) else { throw Unsupported(message: "\(model) parameters must be finite numbers") }
        let k: CameraIntrinsics
        switch model {
        case "SIMPLE_PINHOLE": k = .init(width: width, height: height, fx: p[0], fy: p[0], cx: p[1], cy: p[2])
        case "PINHOLE": k = .init(width: width, height: height, fx: p[0], fy: p[1], cx: p[2], cy: p[3])
        case "SIMPLE_RADIAL":
            k = .init(width: width, height: height, fx: p[0], fy: p[0], cx: p[1], cy: p[2], distortion: [p[3], 0, 0, 0])
        case "RADIAL":
            k = .init(width: width, height: height, fx: p[0], fy: p[0], cx: p[1], cy: p[2], distortion: [p[3], p[4], 0, 0])
        case "OPENCV":
            k = .init(width: width, height: height, fx: p[0], fy: p[1], cx: p[2], cy: p[3], distortion: Array(p[4..<8]))
        case "FULL_OPENCV" where p[9...11].allSatisfy { $0 == 0 }:
            k = .init(width: width, height: height, fx: p[0], fy: p[1], cx: p[2], cy: p[3], distortion: Array(p[4..<9]))
        default:
            let kind = model.hasSuffix("FISHEYE") || model == "FOV" ? "a fisheye model" : "a model with rational distortion terms"
            throw Unsupported(message: "camera model \(model) is \(kind), which arcloud's pinhole camera "
                              + "(\(supported.joined(separator: ", "))) cannot express; undistort the images first "
                              + "(colmap image_undistorter --input_path <model> --output_path <dir>) and use the "
                              + "undistorted model")
        }
        if let problem = k.problem { throw Unsupported(message: problem) }
        return k
    }
}
