/// A discrete happening of the session, delivered to the delegate and `eventStream()`.
/// Unlike `State`, events are not deduplicated and not replayed to late subscribers.
public enum ARCloudEvent: Sendable, Hashable {
    case localization(LocalizationEvent)
    case tap(TapEvent)
    case collection(CollectionEvent)
    case link(LinkEvent)
    case navigation(NavigationEvent)
}
