import Ariel
import Touchstone

/// Runs one `AudioEngine` for an LV2 instance: renders the host's block in pieces split at each event's
/// frame (events are handed back to the plugin in order, so MIDI lands on its frame) and at
/// `maximumBlock` frames (the engine is prepared for that, so any host block size works).
/// Flush-to-zero is on while it renders. Never allocates after `init`. The engine is prepared for a live
/// stream (``Touchstone/ProcessSpec/live(sampleRate:maximumBlockSize:)``): its limiter is the live output stage.
public final class LV2EngineDriver<Engine: AudioEngine> {
    /// The largest piece the engine renders at once, frames (the engines are prepared for it).
    public static var maximumBlock: Int { 8192 }

    public let engine: Engine
    public let sampleRate: Double

    public init(engine: Engine, sampleRate: Double) {
        self.engine = engine
        self.sampleRate = sampleRate
        // A plugin plays live (a host monitors through it): the live output stage, whose delay (1 ms with true
        // peak at 48 kHz and above) each plugin reports on its `latency` port.
        engine.prepare(.live(sampleRate: sampleRate, maximumBlockSize: Self.maximumBlock))
    }

    /// Renders `frameCount` frames into `left`/`right`. For each event of `events` (an atom sequence, or
    /// nil), renders up to its frame, then calls `handle(type, body, size)`. Event frames outside the
    /// block, or before an earlier event, are clamped into order.
    @inline(__always)
    public func run(
        frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
        events: UnsafeRawPointer?, handle: (UInt32, UnsafeRawPointer, Int) -> Void
    ) {
        let saved = FlushToZero.enable()
        defer { FlushToZero.restore(saved) }
        var cursor = 0
        if let events {
            LV2AtomSequence(events).forEachEvent { frame, type, body, size in
                let at = Int(min(max(frame, Int64(cursor)), Int64(frameCount)))
                if at > cursor {
                    render(left, right, from: cursor, to: at)
                    cursor = at
                }
                handle(type, body, size)
            }
        }
        if cursor < frameCount { render(left, right, from: cursor, to: frameCount) }
    }

    @inline(__always)
    func render(_ left: UnsafeMutablePointer<Float>, _ right: UnsafeMutablePointer<Float>, from: Int, to: Int) {
        var start = from
        while start < to {
            let n = min(to - start, Self.maximumBlock)
            engine.render(
                left: UnsafeMutableBufferPointer(start: left + start, count: n),
                right: UnsafeMutableBufferPointer(start: right + start, count: n))
            start += n
        }
    }
}
