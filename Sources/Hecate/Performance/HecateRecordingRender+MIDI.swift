import Ariel

extension HecateRecordingRender {
    /// The MIDI an offline render played (``render(_:engine:initial:chords:options:to:midi:)``'s events,
    /// frames at `sampleRate`) as a Standard MIDI File: one track at 120 BPM, `ticksPerQuarterNote`
    /// ticks per beat, named `trackName`.
    public static func midiFile(_ events: [EngineMIDIOutbox.Event], sampleRate: Double, ticksPerQuarterNote: Int = 960,
                                trackName: String = "Prospero hecate") -> MIDIFile {
        let ticksPerSecond = Double(ticksPerQuarterNote) * 2  // 120 BPM: two beats a second
        var track: [MIDIFileEvent] = [
            .meta(MIDIMetaEvent(type: MIDIMetaEvent.trackNameType, data: Array(trackName.utf8))),
            .meta(MIDIMetaEvent(type: MIDIMetaEvent.tempoType, data: [0x07, 0xA1, 0x20])),
        ]
        var lastTick = 0
        for event in events {
            let tick = max(lastTick, Int((Double(event.frame) / sampleRate * ticksPerSecond).rounded()))
            track.append(.message(MIDIMessage(event.message), delta: tick - lastTick))
            lastTick = tick
        }
        track.append(.meta(MIDIMetaEvent(type: MIDIMetaEvent.endOfTrackType, data: [])))
        return MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(ticksPerQuarterNote), tracks: [MIDIFileTrack(events: track)])
    }
}
