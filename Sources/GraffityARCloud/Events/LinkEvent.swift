/// A link object was tapped: the app should open `url`.
public struct LinkEvent: Sendable, Hashable {
    /// Id of the link object (`SceneObject.id`).
    public var objectId: String
    /// The URL the link opens.
    public var url: String

    /// An event for the link `objectId` opening `url`.
    public init(objectId: String, url: String) { self.objectId = objectId; self.url = url }
}
