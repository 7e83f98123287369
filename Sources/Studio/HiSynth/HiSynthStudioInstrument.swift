import Ariel
import Enobarbus
import Foundation
import HiSynth
import InstrumentSettings
import LiveHost
import Oberon
import Touchstone

/// HiSynth's rack in the studio (`/hisynth/`): the two-oscillator synth of the third seed
/// (`HiSynthEngine`) with its song player (``HiSynthRackEngine``) behind Ariel's command ring, played
/// from the page's keyboard (several pages and fingers at once), from the song player, and from MIDI
/// into JACK's `midi_in`. Live play is the one HiSynth adapter's (``HiSynthLiveInstrument``, which
/// `prospero hisynth play` drives too: the sound, the song's transport, the MIDI clock, the settings
/// section); this type adds what the page needs: controls by path, the notes each page holds, presets
/// by name, state and frames.
///
/// The sound is a preset (`HiSynthPreset`, the original's units, binary16 as the preset string stores
/// them): every `set` changes it and sends the engine the settings made from it (`HiSynthSettings(preset:)`,
/// which clamps as documented there), applied at the start of the next audio block and smoothed by the
/// engine. So what the page exports is exactly what sounds.
///
/// Controls (`set hisynth.<name>`): every ``HiSynthRackControl`` (`osc1.level`, `lp.cutoff`, …),
/// `preset.name` (1…24 characters: the name the export string carries), `octave` (1…7),
/// `player.song` (an index or a title), `player.loop` (bool), `player.tempo` (0.25…4).
/// Actions: `note.on` / `note.off` (MIDI note 0…127, per client), `note.release` (this client's notes),
/// `panic` (every note), `lfo1.off`… (clears that LFO's matrix row), `preset.load` (a name),
/// `preset.save` (a name, 1…24 characters, not a factory name), `preset.import` (a preset string),
/// `player.play` (null toggles, a bool sets), `player.stop`.
/// State: the controls under their names, `preset`, `presetString`, `factoryPresets`, `userPresets`,
/// `envelopeLabel`, `octave`, `songs` ([{title, composer, duration}]), `song`, `playing`, `looping`,
/// `tempo`, `controls` (descriptions), `canSave`, `spectrumBands` (the bars' centres, Hz). A MIDI clock's
/// Start and Stop change `playing` on their own (``takeChanges()``). Frame: see `HiSynthStudioInstrument+Frame.swift`.
public final class HiSynthStudioInstrument: StudioInstrument {
    public static let id = "hisynth"
    public let displayName = "HiSynth"
    public let summary = "A two-oscillator synth rack: presets, filters, LFOs, effects, a keyboard and a song player."

    public let audioEngine: HiSynthStudioAudio
    public var audio: any StudioAudioEngine { audioEngine }
    public var host: EngineHost<HiSynthRackEngine> { audioEngine.host }
    /// The live adapter: the sound, the song's transport, the MIDI clock, the settings section.
    public let live: HiSynthLiveInstrument
    /// The rack keeps time in the engine; only a MIDI clock to follow needs the input loop's tick: once one
    /// was heard on `midi_in` (until then a listening page costs no 100 Hz tick; a first clock or Start is
    /// noticed at the resting tick, 0.25 s).
    public var advancesWithTime: Bool { live.hearsAClock }
    /// The user presets, handed in by the edge that owns their files (nil: none, saving is refused).
    public let library: (any HiSynthPresetStore)?
    /// The song list (the HiSynth song book).
    public let songs: [HiSynthSong]

    /// The sound as the page shows and exports it.
    public var preset: HiSynthPreset { live.preset }
    /// Presets imported since the studio started (the original keeps them until it quits).
    var imported: [HiSynthPreset] = []
    var userNames: [String] = []
    public var octave: Int { live.octave }
    public var song: Int { live.song }
    public var playing: Bool { live.playing }
    public var looping: Bool { live.looping }
    public var tempo: Double { live.tempoScale }
    /// `playing` as the pages last heard it (a clock's Start or Stop changes it on its own).
    var announcedPlaying = false
    /// Notes held from pages: note → the clients holding it (one voice per note however many hold it).
    var holders: [UInt8: Set<String>] = [:]

    // Frame state.
    var lastFrameTime = -Double.infinity
    var lastSnapshot: HiSynthRackSnapshot?
    let analyzer = SpectrumAnalyzer(size: HiSynthStudioInstrument.spectrumSize)

    /// Longest preset string `preset.import` takes (the factory strings are under 200 characters).
    public static let maximumPresetStringLength = HiSynthLiveInstrument.maximumPresetStringLength
    /// Preset names: 1…24 characters (the original's export).
    public static let nameLengths = 1...24
    /// Octaves of the keyboard's lowest C (C1 … C7); the keyboard spans 25 keys from it.
    public static let octaves = HiSynthLiveInstrument.octaves
    /// Notes one client may hold at once (a page has 25 keys and a computer keyboard).
    public static let maximumNotesPerClient = 32
    /// Frames at most this often.
    public static let maximumFrameRate = 30.0

    /// - Parameters:
    ///   - preset: the starting sound (default the original's first, HiSynth Key).
    ///   - library: the user presets (the edge's `HiSynthPresetLibrary`); nil (default): none, saving is refused.
    ///   - songs: the song list (default: the HiSynth song book).
    ///   - clock: the MIDI clock arriving at the audio driver (its ``MIDIClockFollower``): the song follows its
    ///     tempo and transport, as with `prospero hisynth play`; nil for none.
    public init(preset: HiSynthPreset = HiSynthPreset.factory[0], library: (any HiSynthPresetStore)? = nil,
                songs: [HiSynthSong] = HiSynthSongBook.all.map(\.song), clock: (any LiveClock)? = nil) {
        self.library = library
        self.songs = songs
        let engine = HiSynthRackEngine(settings: HiSynthSettings(preset: preset), songs: songs)
        let host = EngineHost(engine: engine, spec: ProcessSpec(sampleRate: 48_000, maximumBlockSize: 1024, channelCount: 2))
        audioEngine = HiSynthStudioAudio(host: host)
        live = HiSynthLiveInstrument(host: host, preset: preset, clock: clock)
        userNames = Self.names(of: library)
    }

    static func names(of library: (any HiSynthPresetStore)?) -> [String] {
        library?.userPresetList().map(\.name) ?? []
    }

    // MARK: State

    public func stateJSON() -> [String: StudioValue] {
        var state = soundJSON()
        state["factoryPresets"] = .array(HiSynthPreset.factory.map { .string($0.name) })
        state["userPresets"] = userPresetsJSON()
        state["octave"] = .number(Double(octave))
        state["songs"] = .array(songs.map {
            .object(["title": .string($0.title), "composer": $0.composer.map { .string($0) } ?? .null,
                     "duration": .number(($0.duration * 100).rounded() / 100)])
        })
        state["song"] = .number(Double(song))
        state["playing"] = .bool(playing)
        state["looping"] = .bool(looping)
        state["tempo"] = .number(tempo)
        state["controls"] = .array(HiSynthRackControl.all.map(\.json))
        state["canSave"] = .bool(library != nil)
        state["spectrumBands"] = .array(Self.spectrumCentres.map { .number(($0 * 10).rounded() / 10) })
        return state
    }

    /// Every member the preset decides: the controls, its name, its string and the envelope label.
    func soundJSON() -> [String: StudioValue] {
        var out: [String: StudioValue] = [:]
        for c in HiSynthRackControl.all { out[c.name] = c.value(in: preset) }
        out["preset"] = .string(preset.name)
        out["presetString"] = (try? preset.encoded()).map { .string($0) } ?? .null
        out["envelopeLabel"] = .string(Self.envelopeLabel(preset.envelope))
        return out
    }

    func userPresetsJSON() -> StudioValue {
        var names = userNames
        for p in imported where !names.contains(p.name) { names.append(p.name) }
        return .array(names.map { .string($0) })
    }

    /// The envelope panel's label (spec §1): "A {ms}ms D {ms}ms S {dB}dB R {ms}ms", sustain in dB to one
    /// decimal (−60 at or below 0.001).
    public static func envelopeLabel(_ e: HiSynthPreset.Envelope) -> String {
        func ms(_ s: Float16) -> String { String(Int((Double(s) * 1000).rounded())) }
        let s = Double(e.sustain)
        let db = s <= 0.001 ? -60 : 20 * log10(s)
        return "A \(ms(e.attack))ms D \(ms(e.decay))ms S \(String(format: "%.1f", db))dB R \(ms(e.release))ms"
    }

    // MARK: Lifecycle

    public func silence(at time: Double) {
        holders.removeAll()
        live.releaseAll()
        // The song stops too: a deselected rack is not rendered, and should not resume mid-song.
        live.play(false)
        announcedPlaying = false
    }

    /// Follows the MIDI clock (tempo, Start, Stop, Continue) through the adapter.
    public func advance(to time: Double) { live.advance(to: time) }

    /// `playing` when a clock's Start or Stop changed it since the pages last heard.
    public func takeChanges() -> [[String: StudioValue]] {
        guard live.playing != announcedPlaying else { return [] }
        announcedPlaying = live.playing
        return [["playing": .bool(live.playing)]]
    }

    public func clientLeft(_ client: String, at time: Double) -> [String: StudioValue] {
        releaseNotes(of: client)
        return [:]
    }
}
