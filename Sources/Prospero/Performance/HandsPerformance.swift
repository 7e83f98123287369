import Ariel
import Enobarbus
import Horatio

/// A recording played through a `HandsPerformer` offline: the MIDI the performance makes,
/// as timed messages and as a Standard MIDI File.
public struct HandsPerformance: Sendable {
    /// Every message, in order, with times in seconds from the start of the recording.
    public var messages: [RoutedMIDIMessage]

    /// Plays `recording` through a performer with `settings`. Frames with the same timestamp
    /// arrive together (one packet); the lifecycle is advanced every `tick` seconds between
    /// frames as a live receiver would, and everything stops `tail` seconds after the last frame.
    public init(recording: Recording, settings: MIDIRouterSettings, stabilizes: Bool = true,
                timeout: Double = 0.25, tick: Double = 0.02, tail: Double = 0.5) throws(MIDIRouterSettingsError) {
        var performer = try HandsPerformer(settings: settings, stabilizes: stabilizes, timeout: timeout)
        var out: [RoutedMIDIMessage] = []
        var index = 0
        let frames = recording.frames
        var clock = 0.0
        var lastFrame = 0.0
        while index < frames.count {
            let t = frames[index].timestamp
            while clock + tick < t {
                // Once every source has timed out the ticks change nothing: skip to the next frame, so a
                // long gap costs O(1), not one tick per `tick`.
                if clock > lastFrame + timeout + 2 * tick {
                    let skip = ((t - clock) / tick).rounded(.down) - 1
                    if skip > 0 { clock += skip * tick }
                }
                clock += tick
                out += performer.advance(to: clock)
            }
            lastFrame = t
            var batch: [TrackingFrame] = []
            while index < frames.count && frames[index].timestamp == t { batch.append(frames[index]); index += 1 }
            out += performer.ingest(batch, at: t)
            clock = max(clock, t)
        }
        let end = clock + tail
        while clock + tick < end {
            clock += tick
            out += performer.advance(to: clock)
        }
        out += performer.stop(at: end)
        messages = out
    }

    /// The performance as a format-0 Standard MIDI File at 120 BPM, `ticksPerQuarterNote` per beat
    /// (960 by default: about 1 ms resolution).
    public func midiFile(ticksPerQuarterNote: Int = 960, trackName: String = "Prospero hands") -> MIDIFile {
        let ticksPerSecond = Double(ticksPerQuarterNote) * 2  // 120 BPM = 2 beats per second
        var events: [MIDIFileEvent] = [
            .meta(MIDIMetaEvent(type: MIDIMetaEvent.trackNameType, data: Array(trackName.utf8))),
            .meta(MIDIMetaEvent(type: MIDIMetaEvent.tempoType, data: [0x07, 0xA1, 0x20])),
        ]
        var lastTick = 0
        for m in messages {
            let tick = max(lastTick, Int((m.time * ticksPerSecond).rounded()))
            events.append(.message(m.message, delta: tick - lastTick))
            lastTick = tick
        }
        events.append(.meta(MIDIMetaEvent(type: MIDIMetaEvent.endOfTrackType, data: [])))
        return MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(ticksPerQuarterNote),
                        tracks: [MIDIFileTrack(events: events)])
    }

    /// The performance as `(seconds, message)` pairs for `MIDISequencer(events:sampleRate:)`, which
    /// `OfflineRenderer` plays into any `AudioEngine`.
    public var sequence: [(seconds: Double, message: MIDIMessage)] { messages.map { ($0.time, $0.message) } }
}
