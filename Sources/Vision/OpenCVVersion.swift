import VisionCore

/// The version of the OpenCV library VisionCore is linked against, e.g. "4.6.0".
public var openCVVersion: String { String(cString: vc_opencv_version()) }
