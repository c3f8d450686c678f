/// Everything a map carries besides its geometry: sections, AR objects and the navigation
/// graph. The JSON form of `arcloud map scene import|export` and of `GET /v1/maps/{id}/scene`.
public struct SceneContent: Sendable, Hashable, Codable {
    public var sections: [MapSection]
    public var objects: [SceneObject]
    public var navigation: NavigationGraph

    public init(sections: [MapSection] = [], objects: [SceneObject] = [], navigation: NavigationGraph = .init()) {
        self.sections = sections; self.objects = objects; self.navigation = navigation
    }
}
