/// A link object was tapped: the app should open `url`.
public struct LinkEvent: Sendable, Hashable {
    public var objectId: String
    public var url: String

    public init(objectId: String, url: String) { self.objectId = objectId; self.url = url }
}
