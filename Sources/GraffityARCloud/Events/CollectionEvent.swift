/// A collectible was collected by tapping it; it leaves the scene for the session's rest.
public struct CollectionEvent: Sendable, Hashable {
    /// Id of the collectible (`SceneObject.id`).
    public var objectId: String
    /// The object's payload (e.g. `title`, `points`).
    public var payload: [String: String]

    /// An event for the collectible `objectId` with its payload.
    public init(objectId: String, payload: [String: String] = [:]) {
        self.objectId = objectId; self.payload = payload
    }
}
