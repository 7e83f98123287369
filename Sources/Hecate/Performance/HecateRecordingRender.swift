import Ariel
import Enobarbus
import Foundation
import Horatio

/// A recorded face performance rendered through `DroneSynthEngine` to WAV: the logic of
/// `prospero hecate --input … -o` and `prospero demo`, callable from tests and tools. Deterministic.
///
/// The render starts `lead` seconds before the first frame (the launch fade-in) and ends with the
/// face-lost fade and a tail of up to `tail` seconds (stopping early at −80 dBFS). It streams to a
/// `WAVSink`, so memory does not grow with the length; the recording's length is checked against
/// `OfflineRenderOptions.maximumSeconds` before anything is rendered.
public enum HecateRecordingRender {
    /// Seconds rendered before the performance starts (the launch fade-in).
    public static let lead = 0.25
    /// Longest tail after the face is lost, seconds.
    public static let tail = 6.0

    /// What a render gave, for the summary line.
    public struct Summary: Sendable, Hashable, CustomStringConvertible {
        /// Seconds rendered.
        public var duration: Double
        /// Highest sample of either channel, dBFS.
        public var peakDecibels: Double
        /// RMS over both channels, dBFS.
        public var rmsDecibels: Double

        public var description: String {
            String(format: "%.2f s, peak %.1f dBFS, RMS %.1f dBFS", duration, peakDecibels, rmsDecibels)
        }
    }

    /// The render options Hecate uses at `sampleRate` in `format`: 256-frame blocks, the tail above.
    public static func options(sampleRate: Double, format: WAVSampleFormat,
                               maximumSeconds: Double = OfflineRenderOptions.defaultMaximumSeconds) -> OfflineRenderOptions {
        OfflineRenderOptions(sampleRate: sampleRate, blockSize: 256, format: format, tailSeconds: tail,
                             silenceThresholdDB: -80, maximumSeconds: maximumSeconds)
    }

    /// The engine commands of the performance at their frames: `initial` at frame 0, the chord
    /// sequence (seconds from the start of the performance), then the face frames through
    /// `HecatePerformance`, everything `lead` seconds late.
    public static func commands(
        for recording: Recording, initial: [DroneSynthEngine.Command], chords: [(Double, NashvilleDegree)], sampleRate: Double
    ) -> [ScheduledCommand<DroneSynthEngine.Command>] {
        var performance = HecatePerformance()
        var commands = initial.map { ScheduledCommand(frame: 0, command: $0) }
        for (time, degree) in chords {
            commands.append(ScheduledCommand(seconds: time + lead, sampleRate: sampleRate, command: .chord(degree)))
        }
        return commands + performance.schedule(recording, sampleRate: sampleRate, offset: lead)
    }

    /// Renders `recording` through `engine` (set up by `initial` and `chords`) into a WAV file on `sink`.
    /// With `midi`, the engine's MIDI out (on when `initial` holds `.midiOut(channel:)`) is handed to it
    /// after every block, message by message with its frame, and at the end MIDI out is turned off (a
    /// note-off for every note still sounding, All Notes Off) at the last frame.
    /// - Throws: `OfflineRenderError.tooLong` before rendering; the sink's errors.
    public static func render<Sink: WAVSink>(
        _ recording: Recording, engine: DroneSynthEngine, initial: [DroneSynthEngine.Command],
        chords: [(Double, NashvilleDegree)], options: OfflineRenderOptions, to sink: Sink,
        midi: ((EngineMIDIOutbox.Event) -> Void)? = nil
    ) throws -> (sink: Sink, summary: Summary) {
        if let last = recording.frames.last?.timestamp, last > options.maximumSeconds {
            // Refused before the commands are built (they grow with the recording's length).
            throw OfflineRenderError.tooLong(seconds: last, limit: options.maximumSeconds)
        }
        let commands = commands(for: recording, initial: initial, chords: chords, sampleRate: options.sampleRate)
        let renderer = OfflineRenderer(engine: engine, options: options)
        var peak: Float = 0
        var sum = 0.0
        let written = try renderer.render(commands: commands, to: sink, observe: { left, right in
            for i in left.indices {
                peak = max(peak, abs(left[i]), abs(right[i]))
                sum += Double(left[i] * left[i] + right[i] * right[i])
            }
            if let midi { engine.midiOutbox.drain(midi) }
        })
        if let midi {
            // The render is over (this thread owns the engine): whatever still sounds ends at the last frame.
            engine.handle(.midiOut(channel: nil))
            engine.midiOutbox.drain(midi)
        }
        let rms = (sum / Double(max(1, 2 * written.frameCount))).squareRoot()
        let summary = Summary(duration: Double(written.frameCount) / options.sampleRate,
                              peakDecibels: 20 * log10(Double(max(peak, 1e-9))), rmsDecibels: 20 * log10(max(rms, 1e-9)))
        return (written.sink, summary)
    }
}
