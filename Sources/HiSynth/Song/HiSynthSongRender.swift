import Ariel
import Foundation

/// Renders a song through HiSynth to WAV bytes: the logic of `prospero hisynth render`, callable from
/// tests and tools. Deterministic: the same song, settings and options give the same bytes.
public enum HiSynthSongRender {
    /// What a render did, for the summary line.
    public struct Summary: Sendable, Hashable, CustomStringConvertible {
        /// Length of the WAV in seconds (song plus tail).
        public var duration: Double
        /// Highest output sample in dBFS (−∞ for silence).
        public var peakDecibels: Double
        /// Notes started.
        public var notes: Int
        /// Voices taken from sounding notes (both layers count).
        public var stolenVoices: Int

        public var description: String {
            let peak = peakDecibels.isFinite ? String(format: "%.1f dBFS", peakDecibels) : "-inf dBFS"
            return String(format: "%.2f s", duration) + ", peak \(peak), \(notes) notes, \(stolenVoices) voices stolen"
        }
    }

    /// Plays `song` through a `HiSynthEngine` with `settings`, streaming the WAV into `sink` block by
    /// block (memory does not grow with the song), and returns the sink and a summary. The tail (release
    /// and reverb) rings out for up to `options.tailSeconds`, stopping at silence.
    ///
    /// - Throws: `OfflineRenderError.tooLong` before anything is written when the song lasts longer than
    ///   `options.maximumSeconds`; the sink's errors.
    public static func render<Sink: WAVSink>(
        song: HiSynthSong, settings: HiSynthSettings, options: OfflineRenderOptions = OfflineRenderOptions(sampleRate: 44_100),
        to sink: Sink, progress: ((Double) -> Void)? = nil
    ) throws -> (sink: Sink, summary: Summary) {
        let engine = HiSynthEngine(settings: settings)
        let renderer = OfflineRenderer(engine: engine, options: options)
        let sequencer = MIDISequencer(file: song.file, sampleRate: options.sampleRate)
        sequencer.chasesControllers = false
        let written = try renderer.render(midi: sequencer, to: sink, progress: progress)
        let snapshot = engine.snapshot()
        let peak = snapshot.peakSinceReset
        let summary = Summary(
            duration: Double(written.frameCount) / options.sampleRate,
            peakDecibels: peak > 0 ? 20 * log10(Double(peak)) : -.infinity,
            notes: snapshot.noteOnCount, stolenVoices: snapshot.stolenVoiceCount)
        return (written.sink, summary)
    }

    /// The same render into memory: the WAV file's bytes and the summary.
    public static func render(
        song: HiSynthSong, settings: HiSynthSettings, options: OfflineRenderOptions = OfflineRenderOptions(sampleRate: 44_100),
        progress: ((Double) -> Void)? = nil
    ) throws -> (wav: [UInt8], summary: Summary) {
        let result = try render(song: song, settings: settings, options: options, to: WAVMemorySink(), progress: progress)
        return (result.sink.bytes, result.summary)
    }
}
