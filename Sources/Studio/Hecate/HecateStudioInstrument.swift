import Ariel
import Enobarbus
import Foundation
import Hecate
import Horatio
import InstrumentSettings
import LiveHost
import Touchstone

/// Hecate in the studio: the live adapter `prospero hecate` drives (``HecateLiveInstrument``: face
/// frames due at their arrival plus the input delay, Wekinator's outputs, the MIDI clock's tempo, the
/// mute) around the studio's engine, plus only what the page needs: the screen's controls (key, chord bar, pack, arpeggiator, tremolo, BPM, play-along and route, bass,
/// drone and reverb levels, a ramped mute) and a HUD frame at up to 30 Hz built from the engine's
/// snapshots and the latest face.
///
/// Controls (`set`, paths `hecate.<name>`): `key` (C, Db, … B), `pack` (an id from `packs`),
/// `arpeggiator` (bool), `arpDivision` and `tremoloDivision` ("1/8", "1/16T", "1/8." …), `tremolo`
/// ("off", sine, triangle, square, saw), `tremoloDepth` (0…1), `bpm` (20…300), `playAlong` (bool),
/// `route` (wired, speaker, bluetooth), `bassLevel`, `droneLevel`, `reverb` (0…1), `muted` (bool).
/// Actions: `chord` (1…7 or "I"…"vii°"), `mute` (toggles; or a bool).
///
/// Mute rides the engine's face fade (100 ms down, 450 ms up, S-curves): while muted no face frame
/// reaches the engine, so nothing can fade it back in; unmuting with a face in view fades it back.
public final class HecateStudioInstrument: StudioInstrument {
    public static let id = "hecate"
    public let displayName = "Hecate"
    public let summary = "Your face plays chords: open your mouth for the 5th and bass, raise your eyebrows for the 3rd."

    public let library: HecatePackLibrary
    public let mappings: FaceMappingSet
    public let meters: [HecateHUDMeter]
    public let engineAudio: StudioEngineAudio<DroneSynthEngine>
    public var audio: any StudioAudioEngine { engineAudio }
    public var host: EngineHost<DroneSynthEngine> { engineAudio.host }

    public internal(set) var settings: HecateStudioSettings
    /// The channel (1…16) Hecate plays what it sounds on as MIDI (`prospero studio --hecate-midi`),
    /// which the JACK driver sends on `midi_out`; nil: no MIDI.
    public let midiChannel: Int?
    /// The live adapter: every input reaches the engine through it, as in `prospero hecate`.
    public let live: HecateLiveInstrument
    /// Whether a face was in view at the last input or tick (a change redraws the HUD).
    var faceInView = false
    /// Face input since the last HUD frame.
    var faceChanged = false
    var lastFrameTime = -Double.infinity
    var lastSnapshot: DroneSynthSnapshot?

    /// The HUD's frame rate limit.
    public static let maximumFrameRate = 30.0

    /// - Parameters:
    ///   - library: the packs offered (default: the built-in ones).
    ///   - settings: the starting settings (a pack id not in `library` falls back to the first pack).
    ///   - mappings: the face → sound routes (default: the seed's).
    ///   - clock: the MIDI clock arriving at the audio driver (its ``MIDIClockFollower``), nil for none.
    ///   - frameClock: the audio clock with the input delay (JACK's): face frames are due on it.
    ///   - midiChannel: play what Hecate sounds as MIDI on this channel (1…16; the driver sends it on
    ///     JACK's `midi_out`), nil for none.
    public init(library: HecatePackLibrary = HecatePackLibrary(), settings: HecateStudioSettings = HecateStudioSettings(),
                mappings: FaceMappingSet = .hecateDefaults, clock: (any LiveClock)? = nil,
                frameClock: (any LiveFrameClock)? = nil, midiChannel: Int? = nil) {
        self.library = library
        self.mappings = mappings
        self.midiChannel = midiChannel
        meters = HecateHUDMeter.seed
        var settings = settings
        if library.pack(id: settings.packID) == nil { settings.packID = library.entries[0].pack.id }
        self.settings = settings
        let pack = library.pack(id: settings.packID)!
        let engine = DroneSynthEngine(preset: settings.preset(of: pack), key: settings.key)
        let host = EngineHost(engine: engine, spec: ProcessSpec(sampleRate: 48_000, maximumBlockSize: 1024, channelCount: 2))
        // The output limiter's delay as the driver prepared it (live: 1 ms), as `prospero hecate` reports to JACK.
        // With MIDI out, the engine's MIDI goes to the driver after each period (as `prospero hecate --midi`'s).
        engineAudio = StudioEngineAudio(host: host, latency: { _ in host.engine.latencySamples },
                                        midiOutbox: midiChannel == nil ? nil : engine.midiOutbox,
                                        midiReleased: { $0.forgetSentMIDI() })
        live = HecateLiveInstrument(host: host, chords: [], clock: clock, frameClock: frameClock, mappings: mappings)
        for command in setupCommands() { host.send(command) }
        if settings.muted { live.mute(true) }
    }

    /// Every command that puts the engine in the state `settings` describes.
    func setupCommands() -> [DroneSynthEngine.Command] {
        [
            .preset(settings.preset(of: pack)), .key(settings.key), .chord(settings.chord), .bpm(settings.bpm),
            .arpeggiatorDivision(HecateStudioSettings.division(settings.arpDivision) ?? .eighth),
            .arpeggiator(settings.arpeggiator), settings.tremoloCommand,
            .output(playAlong: settings.playAlong, route: settings.route),
        ] + (midiChannel.map { [.midiOut(channel: $0)] } ?? [])
    }

    public var pack: SoundPack { library.pack(id: settings.packID) ?? library.entries[0].pack }

    func send(_ command: DroneSynthEngine.Command) { host.send(command) }

    // MARK: Input (through the live adapter)

    public func receive(_ frames: [TrackingFrame], at time: Double) {
        if frames.contains(where: { $0.source == .face }) { faceChanged = true }
        live.receive(frames, at: time)
        noteFaceInView()
    }

    public func receiveControls(_ outputs: [Float], at time: Double) {
        live.receiveControls(outputs, at: time)
    }

    public func advance(to time: Double) {
        live.advance(to: time)
        noteFaceInView()
    }

    /// A face coming into view or leaving it redraws the HUD.
    func noteFaceInView() {
        let inView = live.faceInView
        if inView != faceInView {
            faceInView = inView
            faceChanged = true
        }
    }

    public func silence(at time: Double) {
        send(.faceLost)
    }

    // MARK: State

    public func stateJSON() -> [String: StudioValue] {
        var state = settingsJSON()
        state["chords"] = chordsJSON()
        state["packs"] = library.json
        state["visual"] = HecatePackLibrary.visualJSON(for: pack)
        state["meters"] = .array(meters.map { $0.json(in: mappings) })
        state["faceInView"] = .bool(faceInView)
        state["choices"] = .object([
            "key": .array(HecateStudioSettings.keyNames.map { .string($0) }),
            "division": .array(HecateStudioSettings.divisions.map { .string($0) }),
            "tremolo": .array(HecateStudioSettings.tremoloShapes.map { .string($0) }),
            "route": .array(OutputRoute.allCases.map { .string($0.rawValue) }),
            "bpm": .array([.number(HecateStudioSettings.bpmRange.lowerBound), .number(HecateStudioSettings.bpmRange.upperBound)]),
        ])
        return state
    }

    /// The settings members of the state (what `changed` messages carry).
    func settingsJSON() -> [String: StudioValue] {
        let s = settings
        return [
            "key": .string(s.keyName), "chord": .number(Double(s.chord.rawValue)), "pack": .string(s.packID),
            "arpeggiator": .bool(s.arpeggiator), "arpDivision": .string(s.arpDivision),
            "tremolo": .string(s.tremolo), "tremoloDivision": .string(s.tremoloDivision), "tremoloDepth": .number(s.tremoloDepth),
            "bpm": .number(s.bpm), "playAlong": .bool(s.playAlong), "route": .string(s.route.rawValue),
            "limiterCeiling": .number(s.limiterCeiling),
            "bassLevel": .number(s.bassLevel), "droneLevel": .number(s.droneLevel), "reverb": .number(s.reverb),
            "muted": .bool(s.muted),
        ]
    }

    /// The chord bar for the current key: degree, numeral and chord symbol ("ii", "Dm").
    func chordsJSON() -> StudioValue {
        .array(NashvilleDegree.allCases.map { d in
            .object(["degree": .number(Double(d.rawValue)), "numeral": .string(d.romanNumeral),
                     "name": .string(d.chord(in: settings.key).symbol)])
        })
    }
}
