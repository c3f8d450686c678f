/// Receives a session's state snapshots and discrete events on the main actor.
///
/// Every method has an empty default, so implement only those you need. The SDK holds
/// its delegate weakly: keep your own strong reference. After `shutdown()` no method is
/// called again.
@MainActor
public protocol GraffityARCloudDelegate: AnyObject {
    /// A new, distinct snapshot (duplicates are not delivered).
    func graffityARCloud(_ sdk: GraffityARCloud, didChangeState state: GraffityARCloud.State)
    /// A VPS answer arrived, a request failed, or localization was reset.
    func graffityARCloud(_ sdk: GraffityARCloud, didUpdateLocalization event: LocalizationEvent)
    /// The user tapped the view.
    func graffityARCloud(_ sdk: GraffityARCloud, didTap event: TapEvent)
    /// A collectible was collected.
    func graffityARCloud(_ sdk: GraffityARCloud, didCollect event: CollectionEvent)
    /// A link was tapped.
    func graffityARCloud(_ sdk: GraffityARCloud, didOpenLink event: LinkEvent)
    /// Navigation started, passed a waypoint, arrived, failed or stopped.
    func graffityARCloud(_ sdk: GraffityARCloud, didUpdateNavigation event: NavigationEvent)
}

/// Empty defaults: a delegate implements only the callbacks it needs.
extension GraffityARCloudDelegate {
    /// Does nothing by default.
    public func graffityARCloud(_ sdk: GraffityARCloud, didChangeState state: GraffityARCloud.State) {}
    /// Does nothing by default.
    public func graffityARCloud(_ sdk: GraffityARCloud, didUpdateLocalization event: LocalizationEvent) {}
    /// Does nothing by default.
    public func graffityARCloud(_ sdk: GraffityARCloud, didTap event: TapEvent) {}
    /// Does nothing by default.
    public func graffityARCloud(_ sdk: GraffityARCloud, didCollect event: CollectionEvent) {}
    /// Does nothing by default.
    public func graffityARCloud(_ sdk: GraffityARCloud, didOpenLink event: LinkEvent) {}
    /// Does nothing by default.
    public func graffityARCloud(_ sdk: GraffityARCloud, didUpdateNavigation event: NavigationEvent) {}
}
