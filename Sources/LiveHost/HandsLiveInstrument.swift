import Ariel
import Enobarbus
import Foundation
import Prospero

/// Hands and touches played live: frames → ``HandsPerformer`` → MIDI into a ``LiveMIDIOutput``; on
/// finish, a note-off for every sounding note and CC 123.
public final class HandsLiveInstrument: LiveInstrument {
    public let output: any LiveMIDIOutput
    public let clock: (any LiveClock)?
    private var performer: HandsPerformer
    private var shownBPM: Double?
    private let announce: (String) -> Void
    public private(set) var sent = 0
    public private(set) var notFitting = 0

    public init(performer: HandsPerformer, output: any LiveMIDIOutput, clock: (any LiveClock)?,
                announce: @escaping (String) -> Void = { _ in }) {
        self.performer = performer
        self.output = output
        self.clock = clock
        self.announce = announce
    }

    private func emit(_ messages: [RoutedMIDIMessage]) {
        for m in messages {
            guard let short = m.message.shortMessage else { notFitting += 1; continue }
            output.send(short)
            sent += 1
        }
    }

    public func receive(_ frames: [TrackingFrame], at time: Double) { emit(performer.ingest(frames, at: time)) }

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
