import Ariel
import Enobarbus
import Foundation
import Prospero

/// Hands and touches played live: frames → ``HandsPerformer`` → MIDI into a ``LiveMIDIOutput``; on
/// finish, a note-off for every sounding note and CC 123. With a ``LiveFrameClock``, the MIDI a frame
/// causes is due at the frame of its arrival plus the input delay (timeouts and the final note-offs
/// go as soon as possible).
public final class HandsLiveInstrument: LiveInstrument {
    public let output: any LiveMIDIOutput
    public let clock: (any LiveClock)?
    public let frameClock: (any LiveFrameClock)?
    private var performer: HandsPerformer
    private var shownBPM: Double?
    private let announce: (String) -> Void
    public private(set) var sent = 0
    public private(set) var notFitting = 0
    /// The last value sent on each Wekinator controller (only changes are sent).
    private var controllerValues: [Int: Int] = [:]

    public init(performer: HandsPerformer, output: any LiveMIDIOutput, clock: (any LiveClock)?,
                frameClock: (any LiveFrameClock)? = nil, announce: @escaping (String) -> Void = { _ in }) {
        self.performer = performer
        self.output = output
        self.clock = clock
        self.frameClock = frameClock
        self.announce = announce
    }

    private func emit(_ messages: [RoutedMIDIMessage], dueAt due: UInt32? = nil) {
        for m in messages {
            guard let short = m.message.shortMessage else { notFitting += 1; continue }
            output.send(short, dueAt: due)
            sent += 1
        }
    }

    public func receive(_ frames: [TrackingFrame], at time: Double) {
        let messages = performer.ingest(frames, at: time)
        guard !messages.isEmpty else { return }
        emit(messages, dueAt: frameClock?.dueFrame(forArrival: time))
    }

    /// Wekinator's outputs as controllers 20…31 (`WekinatorControlMapping`) on the performance's channel
    /// (the shared one, the first of per-hand channels, or the MPE manager channel), changes only.
    public func receiveControls(_ outputs: [Float], at time: Double) {
        let channel: Int
        switch performer.router.settings.channels {
        case .shared(let c): channel = c
        case .perSlot(let list): channel = list.first ?? 1
        case .mpe: channel = 1
        }
        let status = UInt8(0xB0 | ((min(max(channel, 1), 16) - 1) & 0x0F))
        for (controller, value) in WekinatorControlMapping.controllers(outputs) where controllerValues[controller] != value {
            controllerValues[controller] = value
            guard let message = MIDIShortMessage(status: status, data1: UInt8(controller), data2: UInt8(value)) else { continue }
            output.send(message)
            sent += 1
        }
    }

    public func advance(to time: Double) {
        emit(performer.advance(to: time))
        if let bpm = clock?.bpm, shownBPM.map({ abs($0 - bpm) >= 0.5 }) ?? true {
            announce(String(format: "MIDI clock in: %.1f BPM", bpm))
            shownBPM = bpm
        }
    }

    public func finish(at time: Double) { emit(performer.stop(at: time)) }

    public func statusLine(at time: Double) -> String? { "MIDI sent \(sent)" }
}
