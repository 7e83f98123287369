/// The camera bridge as the studio sees it: one long-lived tracker process (the project's
/// scripts/camera/prospero_camera.py with `--frames-stdin`, run by the platform edge) that takes one JPEG
/// frame at a time, tracking a face or hands as each frame asks (one process for both models: one frame in
/// flight at a time bounds the studio's camera work whatever the pages ask), and answers each with one line (``StudioCameraBridgeLine``). The edge starts it on the
/// first frame, restarts it with backoff when it dies and reports why through `events`.
public protocol StudioCameraBridge: AnyObject, Sendable {
    /// Where the bridge reports (set once, before the first ``send(id:stream:jpeg:)``).
    func start(events: @escaping @Sendable (StudioCameraBridgeEvent) -> Void)
    /// Hands one frame (empty `jpeg`: the stream ended) to the bridge, to be tracked with `model`; false when it
    /// cannot take it now (not running: starting is under way or waiting for its backoff, reported through the events).
    func send(id: UInt32, stream: UInt16, model: StudioCameraModel, jpeg: ArraySlice<UInt8>) -> Bool
    /// Ends the process (the studio stops).
    func stop()
}
