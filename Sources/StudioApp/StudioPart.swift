import Foundation
import LiveHost
import ServiceLifecycle

/// What the studio's services share: a part that runs on a thread of its own (a blocking loop: the input host,
/// JACK) and a stop of its own, requested when the service group shuts that part down, in its turn.
enum StudioPart {
    /// Runs `body` until the group shuts this service down or cancels it; then requests `stop` with the
    /// studio's reason (`studio`'s, so that a part reports "stopped by SIGINT" as the whole does).
    static func stopping<T>(_ stop: LiveStop, reason studio: LiveStop, _ body: () async -> T) async -> T {
        let request: @Sendable () -> Void = { stop.request(studio.reason ?? .requested) }
        return await withTaskCancellationHandler {
            await withGracefulShutdownHandler(operation: body, onGracefulShutdown: request)
        } onCancel: {
            request()
        }
    }

    /// Runs the blocking `body` on a thread named `name` and returns its result, leaving Swift's few
    /// cooperative threads free meanwhile.
    static func onThread<T: Sendable>(_ name: String, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (done: CheckedContinuation<T, Never>) in
            let thread = Thread { done.resume(returning: body()) }
            thread.name = name
            thread.start()
        }
    }

    /// Waits until `stop` is requested.
    static func wait(for stop: LiveStop) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in stop.onRequest { done.resume() } }
    }

    /// Suspends until the group shuts this service down (or cancels it).
    static func untilShutdown() async { try? await gracefulShutdown() }
}
