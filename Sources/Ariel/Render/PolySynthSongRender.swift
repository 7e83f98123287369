import Foundation

/// Renders a Standard MIDI File through `PolySynth` to WAV bytes: the logic of `prospero render`,
/// callable from tests and other tools. Deterministic: the same bytes in give the same bytes out.
public enum PolySynthSongRender {
    /// What a render did, for the summary line.
    public struct Summary: Sendable, Hashable, CustomStringConvertible {
        /// Length of the WAV in seconds (song plus tail).
        public var duration: Double
        /// Highest output sample, in dBFS (−∞ for silence).
        public var peakDecibels: Double
        /// Voices taken from sounding notes.
        public var stolenVoices: Int
        /// Notes started.
        public var notes: Int
        /// MIDI events in the file (all tracks, channel and system messages).
        public var events: Int
        /// Tracks in the file.
        public var tracks: Int

        public var description: String {
            let peak = peakDecibels.isFinite ? String(format: "%.1f dBFS", peakDecibels) : "-inf dBFS"
            return String(format: "%.2f s", duration) + ", peak \(peak), \(notes) notes, \(stolenVoices) voices stolen, "
                + "\(events) events in \(tracks) tracks"
        }
    }

    /// Parses `midiFile`, plays it through a `PolySynth` of `capacity` voices with `settings`,
    /// and returns the WAV bytes and a summary (the file in memory: for long songs, stream to a sink).
    ///
    /// - Throws: `MIDIFileError` for a malformed file (its description names what and where);
    ///   `OfflineRenderError.tooLong` for a song longer than `options.maximumSeconds`.
    ///   Settings are clamped; validate them first (`PolySynthSettings.validate`) to report errors.
    public static func render(
        midiFile bytes: [UInt8], settings: PolySynthSettings, capacity: Int = 16,
        options: OfflineRenderOptions = OfflineRenderOptions(), progress: ((Double) -> Void)? = nil
    ) throws -> (wav: [UInt8], summary: Summary) {
        let result = try render(midiFile: bytes, settings: settings, capacity: capacity, options: options,
                                to: WAVMemorySink(), progress: progress)
        return (result.sink.bytes, result.summary)
    }

    /// The same render streamed to `sink` block by block: memory does not grow with the song's length.
    /// The song's length is checked against `options.maximumSeconds` before anything is rendered.
    ///
    /// - Throws: `MIDIFileError`, `OfflineRenderError`, `WAVStreamError` or the sink's errors.
    public static func render<Sink: WAVSink>(
        midiFile bytes: [UInt8], settings: PolySynthSettings, capacity: Int = 16,
        options: OfflineRenderOptions = OfflineRenderOptions(), to sink: Sink, progress: ((Double) -> Void)? = nil
    ) throws -> (sink: Sink, summary: Summary) {
        let file = try MIDIFile(decoding: bytes)
        let sequencer = MIDISequencer(file: file, sampleRate: options.sampleRate)
        let synth = PolySynth(capacity: capacity, settings: settings)
        let renderer = OfflineRenderer(engine: synth, options: options)
        let written = try renderer.render(midi: sequencer, to: sink, progress: progress)
        let snapshot = synth.snapshot()
        let peak = snapshot.peakSinceReset
        let summary = Summary(
            duration: Double(written.frameCount) / options.sampleRate,
            peakDecibels: peak > 0 ? 20 * log10(Double(peak)) : -.infinity,
            stolenVoices: snapshot.stolenVoiceCount,
            notes: snapshot.noteOnCount,
            events: sequencer.eventCount,
            tracks: file.tracks.count)
        return (written.sink, summary)
    }
}
