import Ariel
import Foundation
import Touchstone

/// HiSynth with its song player (spec §3): a Standard MIDI File plays through the engine sample-accurately
/// while MIDI from a keyboard plays along, with transport (play, pause, stop, seek, loop, tempo scale).
///
/// The song runs through Ariel's `MIDISequencer` at the engine's sample rate; at a tempo scale s each
/// output block of n frames advances the song by n·s frames (fractions carried) and each event lands at
/// its song offset ÷ s, so at scale 1 every note is on its exact sample of the tempo map. Note-ons reach
/// the engine as any note does, so they re-sync the LFOs and appear in the piano-roll log. Pausing
/// releases the sounding notes; stopping also rewinds; seeking and looping release the notes that were
/// sounding at the jump (the sequencer's note-offs). Controllers are not chased (HiSynth ignores them).
///
/// Real time: `render`, `handle` and `snapshot` never allocate (the sequencer is built in `prepare`).
public final class HiSynthSongPlayer: AudioEngine {
    /// Transport and engine commands, through `EngineHost.send(_:)`.
    public enum Command: Sendable, Hashable {
        /// A command for the synth (notes, settings).
        case engine(HiSynthEngine.Command)
        /// Starts or resumes the song from its position.
        case play
        /// Holds the position and releases the sounding notes.
        case pause
        /// Pauses and rewinds to the start.
        case stop
        /// Moves to a time in seconds of the song (clamped to 0…duration).
        case seek(seconds: Double)
        /// Loops the whole song (true) or plays it once (false).
        case loop(Bool)
        /// Plays faster (> 1) or slower (< 1) than the file's tempo, 0.25…4.
        case tempoScale(Double)
    }

    public typealias Snapshot = HiSynthPlayerSnapshot

    /// Tempo scale range.
    public static let tempoScaleRange: ClosedRange<Double> = 0.25...4

    public let engine: HiSynthEngine
    public let song: HiSynthSong?
    public private(set) var isPlaying = false
    public private(set) var isLooping = false
    public private(set) var tempoScale = 1.0

    /// The sequencer (an empty one without a song); rebuilt in `prepare`. `sequencer` reads it on the
    /// audio thread without reference counting (the checked render path may not retain).
    private var sequencerOwner: MIDISequencer
    private unowned(unsafe) var sequencer: MIDISequencer
    private var sampleRate = 44_100.0
    private var carry = 0.0

    /// - Parameters:
    ///   - engine: the synth.
    ///   - song: the song, or nil for a keyboard-only player.
    ///   - playing: start playing at once.
    ///   - looping: loop the song.
    public init(engine: HiSynthEngine, song: HiSynthSong?, playing: Bool = false, looping: Bool = false) {
        self.engine = engine
        self.song = song
        isPlaying = playing && song != nil
        isLooping = looping
        let placeholder = Self.makeSequencer(song, sampleRate: 44_100)
        sequencerOwner = placeholder
        sequencer = placeholder
    }

    private static func makeSequencer(_ song: HiSynthSong?, sampleRate: Double) -> MIDISequencer {
        let s = song.map { MIDISequencer(file: $0.file, sampleRate: sampleRate) } ?? MIDISequencer(events: [], sampleRate: sampleRate)
        s.chasesControllers = false
        return s
    }

    public func prepare(_ spec: ProcessSpec) {
        let position = self.position
        sampleRate = spec.sampleRate
        engine.prepare(spec)
        let s = Self.makeSequencer(song, sampleRate: spec.sampleRate)
        sequencerOwner = s
        sequencer = s
        applyLoop()
        if position > 0 { s.seek(toSeconds: position) }
        carry = 0
    }

    public func reset() {
        engine.reset()
        sequencer.seek(toFrame: 0)
        carry = 0
    }

    public func handle(_ command: Command) {
        switch command {
        case .engine(let c): engine.handle(c)
        case .play: isPlaying = song != nil
        case .pause: pause()
        case .stop:
            pause()
            sequencer.seek(toFrame: 0)
            carry = 0
        case .seek(let seconds):
            guard song != nil, seconds.isFinite else { return }
            let limit = Double(sequencer.endFrame) / sampleRate
            sequencer.seek(toSeconds: min(max(seconds, 0), limit))
            carry = 0
        case .loop(let on):
            isLooping = on
            applyLoop()
        case .tempoScale(let s):
            guard s.isFinite else { return }
            tempoScale = min(max(s, Self.tempoScaleRange.lowerBound), Self.tempoScaleRange.upperBound)
        }
    }

    public func handle(midi message: MIDIShortMessage) { engine.handle(midi: message) }

    public func releaseAllNotes() { engine.releaseAllNotes() }

    public func snapshot() -> HiSynthPlayerSnapshot {
        HiSynthPlayerSnapshot(
            synth: engine.snapshot(), position: position, duration: song?.duration ?? 0, isPlaying: isPlaying,
            isLooping: isLooping, tempoScale: tempoScale, engineFrame: engine.frame)
    }

    /// The song position in seconds.
    public var position: Double { Double(sequencer.position) / sequencer.sampleRate }

    /// The song's own tempo at its position (BPM, from the file's tempo map: 120 where the file sets none),
    /// nil without a song or for an SMPTE-timed file. Real time: a binary search, no allocation.
    public var songTempo: Double? {
        guard song != nil, let map = sequencer.tempoMap else { return nil }
        return map.bpm(atTick: Int(map.tick(atSeconds: position).rounded(.down)))
    }

    private func pause() {
        isPlaying = false
        engine.releaseAllNotes()
    }

    private func applyLoop() {
        sequencer.setLoop(frames: isLooping && sequencer.endFrame > 0 ? 0..<sequencer.endFrame : nil)
    }

    // Not marked `@_noAllocation @_noLocks`: calls into the parts' classes retain them, which the checker
    // counts as possible locking; HiSynthAllocationTests proves the path allocation-free instead.
    public func render(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>) {
        let n = left.count
        guard isPlaying else {
            engine.render(left: left, right: right)
            return
        }
        let scale = tempoScale
        let wanted = Double(n) * scale + carry
        let songFrames = Int(wanted.rounded(.down))
        carry = wanted - Double(songFrames)
        var cursor = 0
        for event in sequencer.nextBlock(frameCount: songFrames) {
            guard let message = event.message else { continue }
            let offset = scale == 1 ? event.frameOffset : Int(Double(event.frameOffset) / scale)
            let at = min(max(offset, cursor), n)
            if at > cursor {
                engine.render(left: UnsafeMutableBufferPointer(rebasing: left[cursor..<at]),
                              right: UnsafeMutableBufferPointer(rebasing: right[cursor..<at]))
                cursor = at
            }
            engine.handle(midi: message)
        }
        if cursor < n {
            engine.render(left: UnsafeMutableBufferPointer(rebasing: left[cursor..<n]),
                          right: UnsafeMutableBufferPointer(rebasing: right[cursor..<n]))
        }
        if sequencer.isFinished { isPlaying = false }
    }
}
