/// Which frames of a batch keep their inlier matches (`LocalizationResult.inlierMatches`).
///
/// Only the few frames a report draws need them; a session of 100,000 frames would
/// otherwise hold several kilobytes of matches per frame until the run ends. The batch
/// offers each outcome as it comes (in any order, from any worker, one offer at a time)
/// and strips the matches of the frames the retention gives back.
public protocol InlierMatchRetention: Sendable {
    /// Takes frame `index`'s outcome into account; returns the frames (among this one and
    /// those offered before) whose matches are no longer needed.
    mutating func offer(_ outcome: FrameOutcome, at index: Int) -> [Int]
}
