import Ariel
import Enobarbus
import Foundation
import HiSynth
import InstrumentSettings

/// HiSynth played live, the one adapter every front end drives (`prospero hisynth play` and the studio's
/// rack alike): the rack engine (``HiSynthRackEngine``: the synth with a song player per song) behind its
/// command ring, with the sound as a preset (knobs and learned controllers change it; the engine gets the
/// settings it makes, smoothed there), the song choice, loop and tempo scale, the keyboard's octave (saved
/// with the sound), and a MIDI clock on `midi_in` followed: its tempo drives the song, its Start plays the
/// song from the top, Stop stops it, Continue resumes it. MIDI notes on `midi_in` reach the engine at their
/// frame offsets through the audio edge (the engine's `handle(midi:)`), not through here.
///
/// Every method runs on the one thread that sends the engine's commands (the CLI's MIDI-in thread, the
/// studio's session); ``advance(to:)`` reads the clock, so a front end calls it when MIDI arrives or time
/// passes.
public final class HiSynthLiveInstrument: LiveInstrument {
    public let host: EngineHost<HiSynthRackEngine>
    /// The MIDI clock to follow (the audio edge's ``MIDIClockFollower``), nil for none.
    public let clock: (any LiveClock)?
    /// The sound: every knob, as the preset string stores it.
    public private(set) var preset: HiSynthPreset
    /// The keyboard's lowest C's octave (the studio's keyboard; saved with the sound).
    public private(set) var octave = 4
    /// The loaded song's index in ``songs``.
    public private(set) var song = 0
    /// True while the song plays (or starts), as the transport last set it.
    public private(set) var playing = false
    public private(set) var looping = true
    /// The tempo scale without a clock, 0.25…4.
    public private(set) var tempoScale = 1.0
    /// The tempo of the MIDI clock the song follows now (BPM), nil while none runs.
    public private(set) var followedBPM: Double?
    private var announcedBPM: Double?
    private var seenTransport = 0
    private var seenClocks = 0
    private var lastClockTime = -Double.infinity
    private let announce: (String) -> Void

    /// Octaves of the keyboard's lowest C (C1 … C7).
    public static let octaves = 1...7
    /// Longest preset string a settings section may hold (the factory strings are under 200 characters).
    public static let maximumPresetStringLength = 4_096
    /// Seconds without a clock message after which the clock counts as gone (the tempo scale applies again):
    /// 24 clocks a quarter note arrive every 26 ms at 100 BPM, every 52 ms at 48.
    public static let clockTimeout = 0.5
    /// The followed tempo reaches the engine when it moves by this much (BPM); the line only at 0.5 BPM.
    public static let tempoResolution = 0.05

    /// - Parameters:
    ///   - host: the rack engine's host (the JACK handler's, or the studio's audio engine's).
    ///   - preset: the starting sound.
    ///   - clock: the MIDI clock to follow, nil for none.
    ///   - announce: called with a line when the followed tempo or the clock's transport changes.
    public init(host: EngineHost<HiSynthRackEngine>, preset: HiSynthPreset, clock: (any LiveClock)? = nil,
                announce: @escaping (String) -> Void = { _ in }) {
        self.host = host
        self.preset = preset
        self.clock = clock
        self.announce = announce
        host.send(.synth(.apply(HiSynthSettings(preset: preset))))
        host.send(.loop(looping))
    }

    /// The song list (the rack engine's).
    public var songs: [HiSynthSong] { host.engine.songs }

    /// True once the clock brought anything (a clock or a transport message): from then on ``advance(to:)``
    /// has work at every tick; before, a host may rest (the first message is noticed at its resting tick).
    public var hearsAClock: Bool { clock.map { $0.clockCount > 0 || $0.transport != nil } ?? false }

    // MARK: The sound

    /// Makes `p` the sound: the engine gets the settings it makes (applied at the next block, smoothed).
    public func changeSound(to p: HiSynthPreset) {
        preset = p
        host.send(.synth(.apply(HiSynthSettings(preset: p))))
    }

    /// Sets the rack control `name` (``HiSynthRackControl``: `lp.cutoff`, `osc1.level`, …) to `value`;
    /// `path` names it in an error. A refused value changes nothing.
    public func set(control name: String, to value: StudioValue, path: String) throws(StudioError) {
        guard let control = HiSynthRackControl.byName[name] else { throw .unknownControl(path) }
        var p = preset
        try control.set(value, in: &p, path: path)
        changeSound(to: p)
    }

    /// A learned controller moved the knob at `path` (`hisynth.<name>`) to `value` (in the control's range).
    /// Returns false for a path that is no knob of the rack, or a value out of its range.
    @discardableResult
    public func turn(_ path: String, to value: Double) -> Bool {
        let prefix = "hisynth."
        guard path.hasPrefix(prefix) else { return false }
        do { try set(control: String(path.dropFirst(prefix.count)), to: .number(value), path: path) } catch { return false }
        return true
    }

    /// The keyboard's octave (checked by the caller against ``octaves``; clamped here).
    public func setOctave(_ n: Int) { octave = min(max(n, Self.octaves.lowerBound), Self.octaves.upperBound) }

    // MARK: Notes

    public func noteOn(_ note: UInt8) { host.send(.synth(.noteOn(note))) }
    public func noteOff(_ note: UInt8) { host.send(.synth(.noteOff(note))) }
    /// Every note ends now (panic).
    public func allSoundOff() { host.send(.synth(.allSoundOff)) }
    /// Every held note is released (its release stage sounds).
    public func releaseAll() { host.send(.synth(.releaseAll)) }

    // MARK: The song

    /// Loads song `index` (out of range: ignored) and starts it 0.5 s later (the original's transport).
    public func choose(song index: Int) {
        guard songs.indices.contains(index) || (songs.isEmpty && index == 0) else { return }
        song = index
        playing = true
        host.send(.song(index))
    }

    /// Plays (true: from where it stopped) or stops and rewinds (false).
    public func play(_ on: Bool) {
        playing = on
        host.send(on ? .play : .stop)
    }

    public func loop(_ on: Bool) {
        looping = on
        host.send(.loop(on))
    }

    /// The tempo scale without a clock (clamped to 0.25…4); the song glides to it.
    public func scaleTempo(_ scale: Double) {
        guard scale.isFinite else { return }
        tempoScale = min(max(scale, HiSynthSongPlayer.tempoScaleRange.lowerBound), HiSynthSongPlayer.tempoScaleRange.upperBound)
        host.send(.tempoScale(tempoScale))
    }

    // MARK: Live

    /// HiSynth plays no tracking input.
    public func receive(_ frames: [TrackingFrame], at time: Double) {}

    /// Follows the clock: its transport messages since the last call (the latest wins), and its tempo while
    /// clocks keep coming (none for ``clockTimeout``: the tempo scale applies again). `time`: host seconds.
    public func advance(to time: Double) {
        guard let clock else { return }
        if let transport = clock.transport, transport.count != seenTransport {
            seenTransport = transport.count
            switch transport.message {
            case .start:
                playing = true
                host.send(.clockStart)
                announce(songs.isEmpty ? "MIDI clock in: Start" : "MIDI clock in: Start (the song from its top)")
            case .stop:
                playing = false
                host.send(.clockStop)
                announce("MIDI clock in: Stop")
            case .continue:
                playing = true
                host.send(.clockContinue)
                announce("MIDI clock in: Continue")
            }
        }
        let count = clock.clockCount
        if count != seenClocks {
            seenClocks = count
            lastClockTime = time
        }
        let bpm = time - lastClockTime <= Self.clockTimeout ? clock.bpm : nil
        switch (bpm, followedBPM) {
        case (let bpm?, let followed) where abs(bpm - (followed ?? 0)) >= Self.tempoResolution:
            host.send(.clockTempo(bpm))
            if announcedBPM.map({ abs($0 - bpm) >= 0.5 }) ?? true {
                announce(String(format: "MIDI clock in: %.1f BPM", bpm))
                announcedBPM = bpm
            }
            followedBPM = bpm
        case (nil, .some):
            host.send(.clockTempo(nil))
            announce("MIDI clock in: none (the song at its own tempo × \(tempoScale))")
            followedBPM = nil
            announcedBPM = nil
        default:
            break
        }
    }

    public func finish(at time: Double) { releaseAll() }

    public func statusLine(at time: Double) -> String? {
        guard let s = host.latestSnapshot().snapshot else { return nil }
        let p = s.player
        return String(format: "song %.1f/%.1f s %@  voices %d", p.position, p.duration, p.isPlaying ? "playing" : "stopped",
                      p.synth.soundingVoiceCount)
    }

    // MARK: Settings

    /// The settings file's `hisynth` section: the sound as its preset string (every knob, byte-exact as the
    /// original app exports it) and the keyboard's octave.
    public func savedSettings() -> StudioValue? {
        guard let text = try? preset.encoded() else { return nil }
        return .object(["preset": .string(text), "octave": .number(Double(octave))])
    }

    /// Takes a `hisynth` section (``savedSettings()``); returns what it refused, each as "hisynth.member: why".
    public func restoreSettings(_ section: StudioValue) -> [String] {
        guard let members = section.object else { return ["hisynth: must be an object"] }
        var refused: [String] = []
        if let value = members["preset"] {
            if let text = value.string, text.utf8.count <= Self.maximumPresetStringLength {
                do { changeSound(to: try HiSynthPreset(string: text)) } catch {
                    refused.append("hisynth.preset: \(error.description)")
                }
            } else {
                refused.append("hisynth.preset: must be a preset string of at most \(Self.maximumPresetStringLength) bytes")
            }
        }
        if let value = members["octave"] {
            let range = Double(Self.octaves.lowerBound)...Double(Self.octaves.upperBound)
            if let n = value.number, range.contains(n), n == n.rounded() {
                octave = Int(n)
            } else {
                refused.append("hisynth.octave: must be a whole octave 1…7")
            }
        }
        return refused
    }
}
