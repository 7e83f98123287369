import Ariel
import HiSynth
import Touchstone

/// HiSynth's rack as one engine: the synth (`HiSynthEngine`) with a song player per song of the song
/// list, all sharing the synth, so that choosing a song on the audio thread is an index change (each
/// player's sequencer is built in `prepare`). Keyboard notes, settings and MIDI go straight to the synth.
///
/// Transport as in the original (spec §3): choosing a song stops the current one and starts the new one
/// from its beginning 0.5 s later; play/stop toggles (stop also rewinds); looping is on by default (the
/// original loops the whole song forever); a tempo scale 0.25…4 plays faster or slower than the file.
///
/// Real time: `render`, `handle` and `snapshot` never allocate (StudioTests' HiSynthRackAllocationTests).
public final class HiSynthRackEngine: AudioEngine {
    public enum Command: Sendable, Hashable {
        /// A command for the synth: notes, settings, all notes off.
        case synth(HiSynthEngine.Command)
        /// Loads song `index` (out of range: ignored) and starts it 0.5 s later.
        case song(Int)
        /// Starts (or resumes) the loaded song.
        case play
        /// Stops and rewinds.
        case stop
        /// Loops the whole song (true) or plays it once.
        case loop(Bool)
        /// Tempo scale, 0.25…4 (clamped).
        case tempoScale(Double)
    }

    public typealias Snapshot = HiSynthRackSnapshot

    /// Seconds between choosing a song and its start (the original's 0.5 s).
    public static let startDelay = 0.5

    public let engine: HiSynthEngine
    public let songs: [HiSynthSong]
    private let players: [HiSynthSongPlayer]
    private var current = 0
    /// Frames until the chosen song starts; negative: no start pending.
    private var startCountdown = -1
    private var sampleRate = 44_100.0

    /// - Parameters:
    ///   - settings: the synth's starting settings.
    ///   - songs: the song list (may be empty: the rack then plays only from the keyboard and MIDI).
    public init(settings: HiSynthSettings, songs: [HiSynthSong]) {
        let synth = HiSynthEngine(settings: settings)
        engine = synth
        self.songs = songs
        let list: [HiSynthSong?] = songs.isEmpty ? [nil] : songs
        players = list.map { HiSynthSongPlayer(engine: synth, song: $0, playing: false, looping: true) }
    }

    public func prepare(_ spec: ProcessSpec) {
        sampleRate = spec.sampleRate
        for p in players { p.prepare(spec) }
        startCountdown = -1
    }

    public func reset() {
        for p in players { p.reset() }
        startCountdown = -1
    }

    public func handle(_ command: Command) {
        switch command {
        case .synth(let c): engine.handle(c)
        case .song(let index):
            guard index >= 0 && index < players.count else { return }
            players[current].handle(.stop)
            current = index
            players[current].handle(.stop)
            startCountdown = max(0, Int(Self.startDelay * sampleRate))
        case .play:
            startCountdown = -1
            players[current].handle(.play)
        case .stop:
            startCountdown = -1
            players[current].handle(.stop)
        case .loop(let on):
            for p in players { p.handle(.loop(on)) }
        case .tempoScale(let s):
            for p in players { p.handle(.tempoScale(s)) }
        }
    }

    public func handle(midi message: MIDIShortMessage) { engine.handle(midi: message) }

    public func releaseAllNotes() { engine.releaseAllNotes() }

    public func snapshot() -> HiSynthRackSnapshot {
        HiSynthRackSnapshot(player: players[current].snapshot(), song: current, starting: startCountdown >= 0,
                            settings: engine.settings)
    }

    public func render(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        let n = min(left.count, right.count)
        guard n > 0 else { return }
        let player = players[current]
        var from = 0
        if startCountdown >= 0 {
            if startCountdown < n {
                if startCountdown > 0 {
                    player.render(left: UnsafeMutableBufferPointer(rebasing: left[0..<startCountdown]),
                                  right: UnsafeMutableBufferPointer(rebasing: right[0..<startCountdown]))
                }
                from = startCountdown
                startCountdown = -1
                player.handle(.play)
            } else {
                startCountdown -= n
            }
        }
        player.render(left: UnsafeMutableBufferPointer(rebasing: left[from..<n]),
                      right: UnsafeMutableBufferPointer(rebasing: right[from..<n]))
    }

    /// The limiter's look-ahead, frames.
    public var latencySamples: Int { engine.latencySamples }
}
