import Ariel
import Enobarbus
import Foundation
import Hecate
import Horatio

/// Hecate played live, the one adapter every front end drives (`prospero hecate` and the studio's
/// Hecate alike): face frames → ``HecatePerformance`` → engine commands, each frame's commands due at
/// the frame of its arrival plus the input delay (with a ``LiveFrameClock``); Wekinator's outputs as a
/// learned face; the tempo of an incoming MIDI clock for the arpeggiator and tremolo; a chord sequence
/// on the host's clock; and a mute that rides the engine's face fade.
public final class HecateLiveInstrument: LiveInstrument {
    public let host: EngineHost<DroneSynthEngine>
    /// (seconds from the first `advance`, chord), sorted by time.
    public let chords: [(Double, NashvilleDegree)]
    public let clock: (any LiveClock)?
    public let frameClock: (any LiveFrameClock)?
    private var performance: HecatePerformance
    private var start: Double?
    private var nextChord = 1
    /// The tempo of the MIDI clock the engine follows now (BPM), nil while none was followed.
    public private(set) var followedBPM: Double?
    private var announcedBPM: Double?
    /// Until when (host seconds) Wekinator's learned face replaces the tracked one.
    private var wekinatorUntil = -Double.infinity
    /// Seconds Wekinator keeps the face after its latest outputs.
    public static let wekinatorHold = 0.5
    /// Called with a line when the followed tempo changes by 0.5 BPM or more.
    private let announce: (String) -> Void
    /// The latest tracked face (what a HUD draws), nil before the first.
    public private(set) var lastFace: FaceFrame?
    /// True while muted: no face (tracked or Wekinator's) reaches the engine, only the fade-out.
    public private(set) var muted = false

    /// - Parameters:
    ///   - host: the engine's host (the JACK handler's, or the studio's audio engine's).
    ///   - chords: a chord sequence on the host's clock (empty or one: the chord stays as set).
    ///   - clock: the MIDI clock to follow (``MIDIClockFollower`` of the audio edge), nil for none.
    ///   - frameClock: the audio clock with the input delay, nil to apply input at the next period.
    ///   - mappings: the face → sound routes.
    public init(host: EngineHost<DroneSynthEngine>, chords: [(Double, NashvilleDegree)], clock: (any LiveClock)?,
                frameClock: (any LiveFrameClock)? = nil, mappings: FaceMappingSet = .hecateDefaults,
                announce: @escaping (String) -> Void = { _ in }) {
        self.host = host
        self.chords = chords.sorted { $0.0 < $1.0 }
        self.clock = clock
        self.frameClock = frameClock
        self.announce = announce
        performance = HecatePerformance(mappings: mappings)
    }

    /// A face is in view now (the lifecycle's answer: it times out 0.25 s after the last frame).
    public var faceInView: Bool { performance.lifecycle.snapshot.present.contains(.face) }

    public func receive(_ frames: [TrackingFrame], at time: Double) {
        let due = frameClock?.dueFrame(forArrival: time)
        for frame in frames {
            if case .face(let face) = frame { lastFace = face }
            // While Wekinator plays, the tracked face only feeds Wekinator (the host's feature vectors).
            if frame.source == .face && time < wekinatorUntil { continue }
            forward(performance.commands(for: frame), dueAt: due)
        }
    }

    /// Wekinator's outputs as a learned face (`WekinatorControlMapping.face`), which replaces the
    /// tracked face for `wekinatorHold` seconds after each vector; due like a face frame.
    public func receiveControls(_ outputs: [Float], at time: Double) {
        wekinatorUntil = time + Self.wekinatorHold
        let due = frameClock?.dueFrame(forArrival: time)
        forward(performance.commands(for: .face(WekinatorControlMapping.face(outputs, at: time))), dueAt: due)
    }

    public func advance(to time: Double) {
        let origin = start ?? time
        start = origin
        forward(performance.advance(to: time), dueAt: nil)
        // Clock tempo changes of 0.05 BPM or more reach the engine; the line only for 0.5 BPM.
        if let bpm = clock?.bpm, abs(bpm - (followedBPM ?? 0)) >= 0.05 {
            host.send(.bpm(bpm))
            if announcedBPM.map({ abs($0 - bpm) >= 0.5 }) ?? true {
                announce(String(format: "MIDI clock in: %.1f BPM", bpm))
                announcedBPM = bpm
            }
            followedBPM = bpm
        }
        while nextChord < chords.count && time - origin >= chords[nextChord].0 {
            host.send(.chord(chords[nextChord].1))
            nextChord += 1
        }
    }

    /// Mutes (the face fades out in 100 ms and no face reaches the engine) or unmutes (a face in
    /// view fades back in over 450 ms). Returns false when it was already so.
    @discardableResult
    public func mute(_ on: Bool) -> Bool {
        guard on != muted else { return false }
        muted = on
        if on {
            host.send(.faceLost)
        } else if faceInView, let face = lastFace {
            host.send(.faceFound)
            host.send(.face(performance.amounts(for: face)))
        }
        return true
    }

    /// Face commands to the engine; while muted only the fade-out passes (a face frame would fade in).
    private func forward(_ commands: [DroneSynthEngine.Command], dueAt due: UInt32?) {
        for command in commands {
            if muted {
                if case .faceLost = command { host.send(command, dueAt: due) }
                continue
            }
            host.send(command, dueAt: due)
        }
    }

    public func finish(at time: Double) {
        // The face is gone: the engine fades its tones out in the final periods before the audio stops.
        for command in performance.commands(for: .ended(.face, timestamp: time)) { host.send(command) }
    }

    public func statusLine(at time: Double) -> String? {
        guard let s = host.latestSnapshot().snapshot else { return nil }
        let face = faceInView ? "face" : "no face"
        // The output level is the host's meter (peak and 300 ms RMS from the audio thread's tap).
        return String(format: "%@  root %.2f 3rd %.2f 5th %.2f 7th %.2f 9th %.2f oct %.2f bass %.2f  filter %.2f",
                      face, s.root, s.third, s.fifth, s.seventh, s.ninth, s.octave, s.bass, s.filterSweep)
    }
}
