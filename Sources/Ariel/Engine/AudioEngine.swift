import Touchstone

/// An instrument's audio engine as hosts, renderers and backends see it.
///
/// Hecate, Prospero's synth and HiSynth each implement it, so the same `EngineHost`, the same
/// offline renderer and the same JACK backend serve all of them. An engine is owned by the audio
/// thread once rendering starts: other threads reach it only through `EngineHost` (commands in
/// through a lock-free ring, snapshots out through another).
///
/// Every call except `prepare(_:)` runs on the audio thread and must not allocate, lock, throw
/// or log.
public protocol AudioEngine: AnyObject {
    /// A control change (parameter, preset, chord…) sent from another thread.
    associatedtype Command: Sendable
    /// What a display shows, copied out of the audio thread at about 30 Hz.
    associatedtype Snapshot: Sendable

    /// Sizes all state for `spec` (sample rate, largest block). May allocate; never called while
    /// another thread renders.
    func prepare(_ spec: ProcessSpec)

    /// Silences every voice and clears effect tails without allocating.
    func reset()

    /// Applies a command at the current sample position.
    func handle(_ command: Command)

    /// Applies a MIDI message at the current sample position.
    func handle(midi message: MIDIShortMessage)

    /// Renders `left.count` frames of stereo (equal to `right.count`, at most the prepared
    /// maximum block size), overwriting both buffers. Output is finite and below the engine's
    /// limiter ceiling.
    func render(left: UnsafeMutableBufferPointer<Float>, right: UnsafeMutableBufferPointer<Float>)

    /// The display state at the end of the last rendered block.
    func snapshot() -> Snapshot

    /// Releases every sounding note (sustain pedal included), as on All Notes Off.
    func releaseAllNotes()
}
