/// Where an event due at an absolute frame time falls in the block being rendered.
///
/// Frame times are the audio server's free-running frame counter (JACK's `jack_nframes_t`): 32
/// bits that wrap about every 24.8 hours at 48 kHz, so they are compared by their signed
/// difference, which is right across the wrap for events less than 2³¹ frames apart.
///
/// A live input event is stamped on arrival, mapped to the frame time of its arrival and given a
/// fixed delay (one period by default). It is then due inside a block that starts later, at the
/// same distance from its arrival whatever the jitter of the input thread: jitter becomes a fixed
/// latency instead of being quantised to block starts.
public enum FrameSchedule {
    /// Where an event goes.
    public enum Placement: Sendable, Hashable {
        /// Inside this block at this many frames from its start (0 ..< frameCount).
        case inBlock(offset: Int)
        /// Its frame has passed (the input thread or the delay was too slow): at offset 0, counted.
        case late
        /// Due after this block: it waits.
        case later
        /// Due further ahead than any input delay can make it (a wrong clock): at offset 0, counted,
        /// so that a misdated event never holds the queue.
        case beyondHorizon
    }

    /// Places an event due at frame time `due` in the block of `frameCount` frames starting at
    /// frame time `blockStart`.
    /// - Parameters:
    ///   - due: the event's due frame time (wrapping, as JACK's frame time does).
    ///   - blockStart: the frame time of the block's first frame.
    ///   - frameCount: the block's length in frames, ≥ 1.
    ///   - horizon: the most frames ahead an event may be due and still wait (≥ frameCount).
    @inlinable
    public static func place(due: UInt32, blockStart: UInt32, frameCount: Int, horizon: Int) -> Placement {
        let distance = Int(Int32(bitPattern: due &- blockStart))
        if distance < 0 { return .late }
        if distance < frameCount { return .inBlock(offset: distance) }
        return distance <= max(horizon, frameCount) ? .later : .beyondHorizon
    }

    /// The offset at which an event is applied, nil when it waits for a later block.
    @inlinable
    public static func offset(due: UInt32, blockStart: UInt32, frameCount: Int, horizon: Int) -> Int? {
        switch place(due: due, blockStart: blockStart, frameCount: frameCount, horizon: horizon) {
        case .inBlock(let offset): return offset
        case .late, .beyondHorizon: return 0
        case .later: return nil
        }
    }
}
