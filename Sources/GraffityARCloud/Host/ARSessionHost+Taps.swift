import Geometry

extension ARSessionHost {
    /// A tap on the view at `pixel` of the frame on screen: casts a ray from the current
    /// camera pose through the pixel into the scene's AR objects and reports the nearest
    /// hit as a `.tap` event. A collectible hit is then collected (a `.collection` event;
    /// it leaves `scene` for the rest of the session), a link opened (a `.link` event with
    /// its `url`). Before the camera is localized, or outside the image, nothing is hit and
    /// `TapEvent.missReason` says why.
    /// - Returns: the tap event that was emitted.
    /// - Throws: `ARCloudError.sessionShutDown`, `.hostRemoved`, `.hostNotLoaded`.
    @discardableResult
    public func tap(at pixel: SIMD2<Double>) throws -> TapEvent {
        try checkUsable()
        guard isViewLoaded else { throw ARCloudError.hostNotLoaded }
        let event = hitTest(pixel)
        sdk.apply(.happened(.tap(event)))
        guard let id = event.objectId, let object = scene?.objects.first(where: { $0.id == id }) else { return event }
        switch object.kind {
        case .collectible:
            collectedObjectIds.append(id)
            scene?.objects.removeAll { $0.id == id }
            sdk.apply(.happened(.collection(CollectionEvent(objectId: id, payload: object.payload))))
        case .link:
            sdk.apply(.happened(.link(LinkEvent(objectId: id, url: object.payload["url"] ?? ""))))
        case .graffiti:
            break
        }
        return event
    }

    private func hitTest(_ pixel: SIMD2<Double>) -> TapEvent {
        guard let scene else { return TapEvent(pixel: pixel, missReason: "the scene is not ready") }
        guard let pose = cameraPose else { return TapEvent(pixel: pixel, missReason: "not localized") }
        guard session.camera.contains(pixel) else { return TapEvent(pixel: pixel, missReason: "outside the image") }
        let ray = SceneRay(cameraPose: pose, intrinsics: session.camera, pixel: pixel)
        guard let hit = ray.nearestHit(in: scene.objects) else {
            return TapEvent(pixel: pixel, missReason: "no AR object under the tap")
        }
        return TapEvent(pixel: pixel, objectId: hit.object.id, hitPoint: hit.point)
    }
}
