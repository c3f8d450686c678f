import VisionCore

/// The version of the OpenCV library VisionCore is linked against, e.g. "4.6.0".
public var openCVVersion: String { String(cString: vc_opencv_version()) }

/// Threads OpenCV may use inside one call (process-wide). Batch work that already runs one
/// frame per core sets 1: OpenCV's own worker pool would only wait and contend.
public var openCVThreads: Int {
    get { Int(vc_opencv_threads()) }
    set { vc_set_opencv_threads(Int32(clamping: newValue)) }
}

/// Bytes the C heap has handed out and not taken back (glibc's `mallinfo2`: chunks in use
/// in the arenas plus chunks mapped on their own). Swift, C and C++ allocate through it.
public var heapAllocatedBytes: Int { Int(vc_heap_bytes()) }
