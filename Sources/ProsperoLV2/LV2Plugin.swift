/// One LV2 plugin instance: the portable adapter between a host's ports and an engine. The C-ABI edge
/// (`ProsperoLV2Plugin`) forwards every descriptor call here; subclasses wrap one engine each.
///
/// Threads, as the LV2 spec sorts the calls: `init`, `restore` and deinit are the instantiation
/// class (never concurrent with `run`); `connect`, `activate` and `run` the audio class; `run` never
/// allocates, locks or throws. `save` may run on another thread while `run` plays: it reads only the
/// control values `run` copied from the ports.
open class LV2Plugin {
    /// The plugin's description (URI, ports in index order, presets, State key).
    open class var info: LV2PluginInfo { fatalError("subclass") }

    public let uris: LV2URIDs
    public let sampleRate: Double
    /// Ports the host connected, by index.
    public let ports: LV2PortConnections

    /// - Parameters:
    ///   - sampleRate: 22 050…192 000 Hz (values outside are refused by the edge).
    public required init(sampleRate: Double, uris: LV2URIDs) {
        self.sampleRate = sampleRate
        self.uris = uris
        ports = LV2PortConnections(count: Self.info.ports.count)
    }

    /// Sample rates an instance accepts, Hz.
    public static let sampleRates: ClosedRange<Double> = 22_050...192_000

    @inline(__always)
    public final func connect(port: Int, to data: UnsafeMutableRawPointer?) {
        ports.connect(port, to: data)
    }

    /// The host starts processing (after `init` or a `deactivate`): silence and clear tails.
    open func activate() {}

    /// Renders `frameCount` frames (any count; the engine's blocks are at most `LV2EngineDriver.maximumBlock`).
    open func run(frameCount: Int) {}

    /// The State extension's string (nil: nothing to save).
    open func saveState() -> String? { nil }

    /// Restores a string `saveState` gave; false when it is not one.
    open func restoreState(_ string: String) -> Bool { false }
}
