import ServiceLifecycle

/// One step of the studio's stop that is no long-running part of its own (the server stops accepting
/// connections; the notes end): a service that waits for its turn in the group's reverse-order shutdown, runs
/// `step`, and ends, so that the next service stops only after it.
struct StudioShutdownStep: Service {
    let step: @Sendable () async -> Void

    func run() async {
        await StudioPart.untilShutdown()
        await step()
    }
}
