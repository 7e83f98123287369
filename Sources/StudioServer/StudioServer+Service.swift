import LiveHost
import ServiceLifecycle

/// The server as one of the studio app's services. Its stop comes in two steps, so that the studio's other
/// services can stop between them: ``stopAccepting()`` (no new connection, open ones stay), then its own
/// graceful shutdown closes every socket and ends it.
extension StudioServer: Service {
    /// Serves until the service group shuts it down (or cancels it); then closes every socket and returns.
    /// Throws when the server could not start or failed (a taken port, unreadable TLS files).
    public func run() async throws {
        let serving = try startServing()
        listening.withLock { $0 = serving.group }
        defer { listening.withLock { $0 = nil } }
        // Whichever comes first: the group's shutdown, a cancellation, or the server ending by itself.
        let ended = LiveStop()
        let watch = Task(executorPreference: options.executor) { _ = await serving.serving.result; ended.request(.failed("the studio server ended")) }
        defer { watch.cancel() }
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in ended.onRequest { done.resume() } }
            } onGracefulShutdown: {
                ended.request(.requested)
            }
        } onCancel: {
            ended.request(.requested)
        }
        try await close(serving)
    }

    /// Stops taking connections; the open sockets stay until ``run()`` is shut down. Nothing while it does not serve.
    public func stopAccepting() async {
        guard let group = listening.withLock({ $0 }) else { return }
        await group.triggerGracefulShutdown()
    }
}
