import Foundation
import Touchstone

/// Drives any `AudioEngine` from a MIDI sequence and a list of timed commands, block by block, into
/// a WAV encoder. Deterministic: the same engine state, input and options give the same bytes.
///
/// Commands land on their exact frame (the block is split there) and MIDI events at their frame
/// offsets; the engine sees the same calls it would see live from `EngineHost`.
public struct OfflineRenderer<Engine: AudioEngine> {
    public let host: EngineHost<Engine>
    public let options: OfflineRenderOptions

    public init(engine: Engine, options: OfflineRenderOptions) {
        precondition((8_000...192_000).contains(options.sampleRate), "sample rate must be 8000…192000 Hz")
        precondition((16...4096).contains(options.blockSize), "block size must be 16…4096 frames")
        self.options = options
        host = EngineHost(
            engine: engine,
            spec: ProcessSpec(sampleRate: options.sampleRate, maximumBlockSize: options.blockSize, channelCount: 2,
                              isLive: options.liveOutputStage))
    }

    /// Renders until the sequence and the commands are done, then the tail until silence or
    /// `tailSeconds`, into a WAV file in memory. `progress` receives 0…1 now and then (at most about
    /// 100 times).
    ///
    /// - Throws: `OfflineRenderError.tooLong` when the input lasts longer than `options.maximumSeconds`.
    public func render(
        midi sequencer: MIDISequencer? = nil,
        commands: [ScheduledCommand<Engine.Command>] = [],
        minimumSeconds: Double = 0,
        progress: ((Double) -> Void)? = nil
    ) throws(OfflineRenderError) -> WAVEncoder {
        var encoder = WAVEncoder(sampleRate: Int(options.sampleRate), channelCount: 2, format: options.format)
        do {
            try renderBlocks(midi: sequencer, commands: commands, minimumSeconds: minimumSeconds, progress: progress) { l, r in
                encoder.append(left: l, right: r)
            }
        } catch let error as OfflineRenderError {
            throw error
        } catch {
            fatalError("the in-memory encoder does not throw")
        }
        return encoder
    }

    /// The same render streamed block by block into a WAV file on `sink` (memory does not grow with
    /// the length). The file is RF64-ready when the longest possible render could pass 4 GiB; shorter
    /// files are byte for byte what `render` gives. `observe` sees every block written (left, right).
    ///
    /// - Returns: the sink after the header was patched, and the frames written.
    /// - Throws: `OfflineRenderError.tooLong` before anything is written; the sink's errors.
    public func render<Sink: WAVSink>(
        midi sequencer: MIDISequencer? = nil,
        commands: [ScheduledCommand<Engine.Command>] = [],
        minimumSeconds: Double = 0,
        to sink: Sink,
        progress: ((Double) -> Void)? = nil,
        observe: (([Float], [Float]) -> Void)? = nil
    ) throws -> (sink: Sink, frameCount: Int) {
        let longest = try plannedFrames(midi: sequencer, commands: commands, minimumSeconds: minimumSeconds)
        let bytes = UInt64(longest + Int64(options.blockSize)) * 2 * UInt64(options.format.bytesPerSample)
        var writer = try WAVStreamWriter(
            sink: sink, sampleRate: Int(options.sampleRate), channelCount: 2, format: options.format,
            reservingRF64: bytes > UInt64(UInt32.max) - 36)
        try renderBlocks(midi: sequencer, commands: commands, minimumSeconds: minimumSeconds, progress: progress) { l, r in
            observe?(l, r)
            try l.withUnsafeBufferPointer { lp in try r.withUnsafeBufferPointer { rp in try writer.append(left: lp, right: rp) } }
        }
        let frames = Int(writer.frameCount)
        return (try writer.finish(), frames)
    }

    /// The longest render the input can give (content, then the whole tail), in frames.
    /// - Throws: `OfflineRenderError.tooLong` when the content passes `options.maximumSeconds`.
    public func plannedFrames(
        midi sequencer: MIDISequencer? = nil, commands: [ScheduledCommand<Engine.Command>] = [], minimumSeconds: Double = 0
    ) throws(OfflineRenderError) -> Int64 {
        let rate = options.sampleRate
        let lastCommand = commands.map(\.frame).max() ?? -1
        let seconds = max(Double(sequencer?.endFrame ?? 0), Double(lastCommand + 1), minimumSeconds * rate) / rate
        guard seconds <= options.maximumSeconds else { throw .tooLong(seconds: seconds, limit: options.maximumSeconds) }
        return Int64((seconds * rate).rounded(.up)) + Int64(options.tailSeconds * rate)
    }

    /// The render loop: every block, in order, to `consume`.
    private func renderBlocks(
        midi sequencer: MIDISequencer?,
        commands: [ScheduledCommand<Engine.Command>],
        minimumSeconds: Double,
        progress: ((Double) -> Void)?,
        consume: ([Float], [Float]) throws -> Void
    ) throws {
        _ = try plannedFrames(midi: sequencer, commands: commands, minimumSeconds: minimumSeconds)
        let rate = options.sampleRate
        let block = options.blockSize
        let commands = commands.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
        let contentEnd = max(sequencer?.endFrame ?? 0, (commands.last?.frame ?? -1) + 1, Int64(minimumSeconds * rate))
        let tailFrames = Int64(options.tailSeconds * rate)
        let silentRun = Int64(0.2 * rate)
        let threshold = Float(pow(10, options.silenceThresholdDB / 20))

        var left = [Float](repeating: 0, count: block)
        var right = [Float](repeating: 0, count: block)
        var timed = [TimedMIDIMessage](repeating: TimedMIDIMessage(frameOffset: 0, message: MIDIShortMessage(status: 0xF8)!), count: sequencer?.maximumEventsPerBlock ?? 1)
        var position: Int64 = 0
        var nextCommand = 0
        var quietFrames: Int64 = 0
        var lastReported = -1

        while true {
            let sequenceDone = sequencer?.isFinished ?? true
            if position >= contentEnd && sequenceDone && nextCommand == commands.count {
                if position >= contentEnd + tailFrames || quietFrames >= silentRun { break }
            }
            // MIDI of this block, as timed messages (SysEx is not for synth engines and is skipped).
            var midiCount = 0
            if let sequencer {
                for event in sequencer.nextBlock(frameCount: block) {
                    guard let message = event.message else { continue }
                    timed[midiCount] = TimedMIDIMessage(frameOffset: event.frameOffset, message: message)
                    midiCount += 1
                }
            }
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    timed.withUnsafeBufferPointer { t in
                        var cursor = 0
                        var midiCursor = 0
                        while cursor < block {
                            // Apply every command due now, then render up to the next one.
                            while nextCommand < commands.count && commands[nextCommand].frame <= position + Int64(cursor) {
                                host.send(commands[nextCommand].command)
                                nextCommand += 1
                            }
                            var end = block
                            if nextCommand < commands.count {
                                end = min(block, max(cursor + 1, Int(commands[nextCommand].frame - position)))
                            }
                            var midiEnd = midiCursor
                            while midiEnd < midiCount && t[midiEnd].frameOffset < end { midiEnd += 1 }
                            rebasedMIDI(t, midiCursor, midiEnd, minus: cursor) { slice in
                                host.process(
                                    left: UnsafeMutableBufferPointer(rebasing: l[cursor..<end]),
                                    right: UnsafeMutableBufferPointer(rebasing: r[cursor..<end]),
                                    midi: slice)
                            }
                            midiCursor = midiEnd
                            cursor = end
                        }
                    }
                }
            }
            var blockPeak: Float = 0
            for i in 0..<block { blockPeak = max(blockPeak, abs(left[i]), abs(right[i])) }
            quietFrames = position >= contentEnd && blockPeak < threshold ? quietFrames + Int64(block) : 0
            try consume(left, right)
            position += Int64(block)
            if let progress {
                let total = Double(contentEnd + tailFrames)
                let percent = total > 0 ? min(100, Int(Double(position) / total * 100)) : 100
                if percent != lastReported {
                    lastReported = percent
                    progress(Double(percent) / 100)
                }
            }
        }
        progress?(1)
    }

    /// Calls `body` with messages `from..<to` whose offsets are shifted by `minus`.
    private func rebasedMIDI(
        _ all: UnsafeBufferPointer<TimedMIDIMessage>, _ from: Int, _ to: Int, minus: Int,
        _ body: (UnsafeBufferPointer<TimedMIDIMessage>) -> Void
    ) {
        guard from < to else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        if minus == 0 { return body(UnsafeBufferPointer(rebasing: all[from..<to])) }
        withUnsafeTemporaryAllocation(of: TimedMIDIMessage.self, capacity: to - from) { tmp in
            for i in from..<to {
                tmp[i - from] = TimedMIDIMessage(frameOffset: all[i].frameOffset - minus, message: all[i].message)
            }
            body(UnsafeBufferPointer(tmp))
        }
    }
}
