import Ariel
import Enobarbus
import Foundation
import Hecate
import Horatio

/// Hecate played live: face frames → ``HecatePerformance`` → engine commands, a chord sequence on
/// the host's clock, and the tempo of an incoming MIDI clock for the arpeggiator and tremolo. With a
/// ``LiveFrameClock``, a frame's commands are due at the frame of its arrival plus the input delay.
public final class HecateLiveInstrument: LiveInstrument {
    public let host: EngineHost<DroneSynthEngine>
    /// (seconds from the first `advance`, chord), sorted by time.
    public let chords: [(Double, NashvilleDegree)]
    public let clock: (any LiveClock)?
    public let frameClock: (any LiveFrameClock)?
    private var performance = HecatePerformance()
    private var start: Double?
    private var nextChord = 1
    private var followedBPM: Double?
    /// Until when (host seconds) Wekinator's learned face replaces the tracked one.
    private var wekinatorUntil = -Double.infinity
    /// Seconds Wekinator keeps the face after its latest outputs.
    public static let wekinatorHold = 0.5
    /// Called with a line when the followed tempo changes by 0.5 BPM or more.
    private let announce: (String) -> Void

    public init(host: EngineHost<DroneSynthEngine>, chords: [(Double, NashvilleDegree)], clock: (any LiveClock)?,
                frameClock: (any LiveFrameClock)? = nil, announce: @escaping (String) -> Void = { _ in }) {
        self.host = host
        self.chords = chords.sorted { $0.0 < $1.0 }
        self.clock = clock
        self.frameClock = frameClock
        self.announce = announce
    }

    public func receive(_ frames: [TrackingFrame], at time: Double) {
        let due = frameClock?.dueFrame(forArrival: time)
        for frame in frames {
            // While Wekinator plays, the tracked face only feeds Wekinator (the host's feature vectors).
            if frame.source == .face && time < wekinatorUntil { continue }
            for command in performance.commands(for: frame) { host.send(command, dueAt: due) }
        }
    }

    /// Wekinator's outputs as a learned face (`WekinatorControlMapping.face`), which replaces the
    /// tracked face for `wekinatorHold` seconds after each vector.
    public func receiveControls(_ outputs: [Float], at time: Double) {
        wekinatorUntil = time + Self.wekinatorHold
        for command in performance.commands(for: .face(WekinatorControlMapping.face(outputs, at: time))) { host.send(command) }
    }

    public func advance(to time: Double) {
        let origin = start ?? time
        start = origin
        for command in performance.advance(to: time) { host.send(command) }
        // Clock tempo changes of 0.05 BPM or more reach the engine; the line only for 0.5 BPM.
        if let bpm = clock?.bpm, abs(bpm - (followedBPM ?? 0)) >= 0.05 {
            host.send(.bpm(bpm))
            if followedBPM.map({ abs($0 - bpm) >= 0.5 }) ?? true {
                announce(String(format: "MIDI clock in: %.1f BPM", bpm))
            }
            followedBPM = bpm
        }
        while nextChord < chords.count && time - origin >= chords[nextChord].0 {
            host.send(.chord(chords[nextChord].1))
            nextChord += 1
        }
    }

    public func finish(at time: Double) {
        // The face is gone: the engine fades its tones out in the final periods before JACK stops it.
        for command in performance.commands(for: .ended(.face, timestamp: time)) { host.send(command) }
    }

    public func statusLine(at time: Double) -> String? {
        guard let s = host.latestSnapshot().snapshot else { return nil }
        let face = performance.lifecycle.snapshot.present.contains(.face) ? "face" : "no face"
        // The output level is the host's meter (peak and 300 ms RMS from the audio thread's tap).
        return String(format: "%@  root %.2f 3rd %.2f 5th %.2f 7th %.2f 9th %.2f oct %.2f bass %.2f  filter %.2f",
                      face, s.root, s.third, s.fifth, s.seventh, s.ninth, s.octave, s.bass, s.filterSweep)
    }
}
