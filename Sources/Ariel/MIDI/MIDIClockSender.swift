/// Generates MIDI clock for an audio callback: the frame offsets of 0xF8 ticks inside each block,
/// plus Start, Stop, Continue and Song Position Pointer, all placed from absolute time.
///
/// Tick k (counted since the last tempo change) falls on the first frame at or after its exact time:
/// `anchorFrame + ceil(k × framesPerTick)`, computed in integers (framesPerTick = 2500 × sampleRate /
/// milliBPM), so nothing accumulates: after an hour at any tempo the tick count and every tick's
/// frame are exact. Tempo has a resolution of 0.001 BPM and the sample rate is taken in whole Hz.
///
/// Clock runs continuously, stopped or not (receivers keep their tempo locked); Start and Continue
/// are sent right before the next tick so that tick is the downbeat, as the MIDI specification says.
/// A tempo change takes effect from the next tick. `nextBlock` never allocates.
public struct MIDIClockSender: Sendable {
    public struct Event: Sendable, Hashable {
        public var frameOffset: Int
        public var message: MIDIShortMessage
        public init(frameOffset: Int, message: MIDIShortMessage) {
            self.frameOffset = frameOffset
            self.message = message
        }
    }

    public let sampleRate: Int
    public private(set) var milliBPM: Int
    public var bpm: Double { Double(milliBPM) / 1000 }
    public private(set) var isRunning = false
    /// Position of the next tick in MIDI clocks from the song start (advances while running).
    public private(set) var position = 0
    /// Frames generated so far.
    public private(set) var frame: Int64 = 0
    /// Ticks sent so far.
    public private(set) var ticksSent: Int64 = 0

    private var anchorFrame: Int64 = 0
    private var anchorTick: Int64 = 0
    private var nextTick: Int64 = 0
    private var nextTickFrame: Int64 = 0
    private var pendingTransport: UInt8 = 0
    private var pendingSongPosition: Int = -1
    private var pendingStop = false

    /// - Parameters:
    ///   - bpm: 1…1000 quarter notes per minute.
    ///   - sampleRate: frames per second (whole Hz).
    public init(bpm: Double, sampleRate: Int) {
        self.sampleRate = max(1, sampleRate)
        milliBPM = Self.milli(bpm)
    }

    private static func milli(_ bpm: Double) -> Int {
        guard bpm.isFinite else { return 120_000 }
        return Int((max(1, min(1000, bpm)) * 1000).rounded())
    }

    private func frameOfTick(_ k: Int64) -> Int64 {
        // ceil((k - anchor) × 2500 × sampleRate / milliBPM)
        let num = (k - anchorTick) * 2500 * Int64(sampleRate)
        let den = Int64(milliBPM)
        return anchorFrame + (num + den - 1) / den
    }

    /// Exact frames per tick (for displays).
    public var framesPerTick: Double { 2500 * Double(sampleRate) / Double(milliBPM) }

    /// Changes the tempo from the next tick on, which keeps its already scheduled frame.
    public mutating func setTempo(bpm: Double) {
        anchorTick = nextTick
        anchorFrame = nextTickFrame
        milliBPM = Self.milli(bpm)
    }

    /// Start from song position 0: Start goes out right before the next tick.
    public mutating func start() { pendingTransport = 0xFA; pendingStop = false }
    /// Continue from the current position.
    public mutating func continuePlayback() { pendingTransport = 0xFB; pendingStop = false }
    /// Stop at the start of the next block.
    public mutating func stop() { pendingStop = true; pendingTransport = 0 }
    /// Sends Song Position Pointer (in sixteenths, 0…16383) at the start of the next block and moves
    /// the position there. Receivers honour it while stopped.
    public mutating func setSongPosition(sixteenths: Int) {
        pendingSongPosition = max(0, min(16383, sixteenths))
    }

    /// Fills `events` with this block's messages in order and advances by `frameCount` frames.
    /// Returns how many were written; when `events` is too small the rest are not written (and the
    /// ticks are still counted as sent, so time stays exact). At most `frameCount / framesPerTick + 4`
    /// events occur per block.
    public mutating func nextBlock(frameCount: Int, into events: UnsafeMutableBufferPointer<Event>) -> Int {
        var n = 0
        func put(_ offset: Int, _ status: UInt8, _ d1: UInt8 = 0, _ d2: UInt8 = 0) {
            guard n < events.count else { return }
            events[n] = Event(frameOffset: offset, message: MIDIShortMessage(unchecked: status, d1, d2))
            n += 1
        }
        if pendingStop {
            put(0, 0xFC)
            isRunning = false
            pendingStop = false
        }
        if pendingSongPosition >= 0 {
            put(0, 0xF2, UInt8(pendingSongPosition & 0x7F), UInt8(pendingSongPosition >> 7))
            position = pendingSongPosition * 6
            pendingSongPosition = -1
        }
        let end = frame + Int64(max(0, frameCount))
        if ticksSent == 0 && nextTick == 0 { nextTickFrame = frameOfTick(0) }
        while nextTickFrame < end {
            let offset = Int(nextTickFrame - frame)
            if pendingTransport != 0 {
                put(offset, pendingTransport)
                if pendingTransport == 0xFA { position = 0 }
                isRunning = true
                pendingTransport = 0
            }
            put(offset, 0xF8)
            if isRunning { position += 1 }
            ticksSent += 1
            nextTick += 1
            nextTickFrame = frameOfTick(nextTick)
        }
        frame = end
        return n
    }
}
