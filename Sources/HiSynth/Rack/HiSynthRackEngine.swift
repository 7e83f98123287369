import Ariel
import Foundation
import Touchstone

/// HiSynth's rack as one engine: the synth (`HiSynthEngine`) with a song player per song of the song
/// list, all sharing the synth, so that choosing a song on the audio thread is an index change (each
/// player's sequencer is built in `prepare`). Keyboard notes, settings and MIDI go straight to the synth.
///
/// Transport as in the original (spec §3): choosing a song stops the current one and starts the new one
/// from its beginning 0.5 s later; play/stop toggles (stop also rewinds); looping is on by default (the
/// original loops the whole song forever); a tempo scale 0.25…4 plays faster or slower than the file.
///
/// Slaved to a MIDI clock (``Command/clockTempo(_:)``, sent by the live adapter from the clock on `midi_in`):
/// while a tempo is followed the song's own tempo map is scaled so that its tempo at the position equals the
/// clock's (the scale clamped to 0.25…4); without one the tempo scale applies. Either way the scale the song
/// plays at glides to its target with a time constant of ``tempoGlide`` (a tempo step never jumps the song).
/// The clock's Start plays the song from its top, Stop pauses it (notes end), Continue resumes it.
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
        /// Tempo scale, 0.25…4 (clamped), for when no MIDI clock is followed.
        case tempoScale(Double)
        /// The tempo of the MIDI clock to follow, BPM (nil, or not finite and positive: none; the tempo scale applies).
        case clockTempo(Double?)
        /// MIDI Start: the loaded song plays from its top (a pending song choice starts now).
        case clockStart
        /// MIDI Stop: the song pauses where it is (its notes end).
        case clockStop
        /// MIDI Continue: the song resumes from where it paused.
        case clockContinue
    }

    public typealias Snapshot = HiSynthRackSnapshot

    /// Seconds between choosing a song and its start (the original's 0.5 s).
    public static let startDelay = 0.5
    /// Time constant of the glide of the song's tempo scale to a new target (a clock's tempo, the page's scale), s.
    public static let tempoGlide = 0.05

    public let engine: HiSynthEngine
    public let songs: [HiSynthSong]
    private let players: [HiSynthSongPlayer]
    private var current = 0
    /// Frames until the chosen song starts; negative: no start pending.
    private var startCountdown = -1
    private var sampleRate = 44_100.0
    /// The tempo scale asked for without a clock, and the followed clock's tempo (0: none).
    private var tempoScale = 1.0
    private var clockBPM = 0.0
    /// The scale the current song plays at now (gliding to its target); negative before the first block.
    private var playedScale = -1.0

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
        playedScale = -1
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
            guard s.isFinite else { return }
            tempoScale = min(max(s, HiSynthSongPlayer.tempoScaleRange.lowerBound), HiSynthSongPlayer.tempoScaleRange.upperBound)
        case .clockTempo(let bpm):
            clockBPM = bpm.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 0
        case .clockStart:
            startCountdown = -1
            players[current].handle(.stop)
            players[current].handle(.play)
        case .clockStop:
            startCountdown = -1
            players[current].handle(.pause)
        case .clockContinue:
            startCountdown = -1
            players[current].handle(.play)
        }
    }

    /// The scale the song should play at: the clock's tempo over the song's own at its position, else the tempo scale.
    private func targetScale(of player: HiSynthSongPlayer) -> Double {
        guard clockBPM > 0, let own = player.songTempo, own > 0 else { return tempoScale }
        let range = HiSynthSongPlayer.tempoScaleRange
        return min(max(clockBPM / own, range.lowerBound), range.upperBound)
    }

    /// Glides the played scale towards its target over a block of `n` frames and gives it to `player`.
    private func glideScale(of player: HiSynthSongPlayer, frames n: Int) {
        let target = targetScale(of: player)
        if playedScale < 0 {
            playedScale = target
        } else if playedScale != target {
            let k = 1 - exp(-Double(n) / (Self.tempoGlide * sampleRate))
            playedScale += (target - playedScale) * k
            if abs(target - playedScale) < 1e-6 { playedScale = target }
        }
        player.handle(.tempoScale(playedScale))
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
        glideScale(of: player, frames: n)
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
