import Ariel
import Enobarbus
import Horatio

/// The whole hands-to-MIDI chain for one performer: tracking frames → `SourceLifecycle`
/// (appeared / updated / lost, with a timeout) → `InputFeatureExtractor` (stabiliser, fingers,
/// pinch) → `MIDIRouter`. Live input and recordings go through the same calls, so a replayed
/// recording produces the MIDI the live performance did.
///
///     var performer = try HandsPerformer(settings: MIDIRouterSettings())
///     let midi = performer.ingest(frames, at: now)   // and performer.advance(to: now) on a timer
public struct HandsPerformer: Sendable {
    public private(set) var router: MIDIRouter
    public private(set) var lifecycle: SourceLifecycle
    public var extractor: InputFeatureExtractor
    private var inputs: [InputSourceID: RouterInput] = [:]

    public init(settings: MIDIRouterSettings, stabilizes: Bool = true, timeout: Double = 0.25) throws(MIDIRouterSettingsError) {
        router = try MIDIRouter(settings: settings)
        lifecycle = SourceLifecycle(timeout: timeout)
        extractor = InputFeatureExtractor(stabilizes: stabilizes, depthSource: settings.depthSource)
    }

    /// Applies frames received at `time` (seconds) and returns the MIDI they cause.
    public mutating func ingest(_ frames: [TrackingFrame], at time: Double) -> [RoutedMIDIMessage] {
        apply(lifecycle.ingest(frames, at: time))
        return router.process(Array(inputs.values), at: time)
    }

    /// Applies frames of sources the caller holds (fingers resting on a pad, which send nothing while
    /// still), without timing anything out first; the next `ingest` or `advance` plays them. Re-present
    /// held sources with a fresh timestamp before each call so the lifecycle never loses them.
    public mutating func present(_ frames: [TrackingFrame]) {
        for frame in frames { apply(lifecycle.ingest(frame)) }
    }

    /// Times out sources that went quiet and sends held-back controller values; call regularly.
    public mutating func advance(to time: Double) -> [RoutedMIDIMessage] {
        apply(lifecycle.advance(to: time))
        return router.process(Array(inputs.values), at: time)
    }

    /// Rebuilds the routes (see `MIDIRouter.updateRoutes`).
    public mutating func updateRoutes(_ settings: MIDIRouterSettings, at time: Double) throws(MIDIRouterSettingsError) -> [RoutedMIDIMessage] {
        extractor.depthSource = settings.depthSource
        return try router.updateRoutes(settings, at: time)
    }

    /// Loses every source and stops the router (note-offs, then CC 123).
    public mutating func stop(at time: Double) -> [RoutedMIDIMessage] {
        apply(lifecycle.loseAll(at: time))
        return router.stop(at: time)
    }

    private mutating func apply(_ events: [SourceEvent]) {
        for event in events {
            switch event {
            case .appeared(let frame), .updated(let frame):
                if let input = extractor.input(for: frame) { inputs[input.source] = input }
            case .lost(let id, _, _):
                inputs[id] = nil
                extractor.lose(id)
            }
        }
    }
}
