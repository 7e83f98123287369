import Ariel
import Enobarbus
import Foundation
import Prospero

/// Hands and touches played live: frames → ``HandsPerformer`` → MIDI into a ``LiveMIDIOutput``; on
/// finish, a note-off for every sounding note and CC 123. With a ``LiveFrameClock``, the MIDI a frame
/// causes is due at the frame of its arrival plus the input delay (timeouts and the final note-offs
/// go as soon as possible). Wekinator's outputs become controllers 20…31; a ``LiveClock`` (MIDI clock in)
/// is announced when its tempo moves.
///
/// The one live adapter for hands: `prospero hands` drives it from the UDP input, and the studio's hands
/// (`HandsStudioController`) from the same input plus the page's fingers, which it holds and re-presents
/// (``present(_:)``) so that resting fingers never time out.
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
    /// The velocity of the newest note-on sent (1…127), nil before the first.
    public private(set) var newestVelocity: Int?

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
            if case .noteOn(_, _, let velocity) = m.message, velocity.rawValue > 0 { newestVelocity = Int(velocity.rawValue) }
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

    // MARK: For a front end that holds sources itself (the studio's page fingers)

    /// The router: its sounding notes and the channels it plays, for a display.
    public var router: MIDIRouter { performer.router }

    /// The incoming MIDI clock's tempo (BPM), nil without a clock or while none runs.
    public var clockBPM: Double? { clock?.bpm }

    /// Frames of sources the caller holds (fingers resting on a pad send nothing while still), re-stamped by
    /// the caller before each ``receive(_:at:)`` so the lifecycle never times them out.
    public func present(_ held: [TrackingFrame]) { performer.present(held) }

    /// Rebuilds the routes (a new note layout or channel assignment); the notes that no longer fit end, due at
    /// `time`'s frame like the input that caused it.
    public func updateRoutes(_ settings: MIDIRouterSettings, at time: Double) throws(MIDIRouterSettingsError) {
        emit(try performer.updateRoutes(settings, at: time), dueAt: frameClock?.dueFrame(forArrival: time))
    }

    /// Ends every note mid-session (note-offs, then CC 123 on the channels that played), due at `time`'s frame:
    /// never before a note-on that an earlier input queued for a later frame (``finish(at:)`` sends its
    /// note-offs at once, for the final period).
    public func stop(at time: Double) {
        emit(performer.stop(at: time), dueAt: frameClock?.dueFrame(forArrival: time))
    }

    public func statusLine(at time: Double) -> String? { "MIDI sent \(sent)" }
}
