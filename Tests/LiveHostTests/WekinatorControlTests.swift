import Ariel
import Enobarbus
import Foundation
import Hecate
import Horatio
import LiveHost
import Prospero
import Synchronization
import Testing
import Touchstone

/// A MIDI output that keeps the messages.
final class RecordingMIDIOutput: LiveMIDIOutput, @unchecked Sendable {
    let messages = Mutex<[MIDIShortMessage]>([])
    func send(_ message: MIDIShortMessage, dueAt due: UInt32?) -> Bool {
        messages.withLock { $0.append(message) }
        return true
    }
}

/// Wekinator's outputs playing the instruments (WekinatorControlMapping): controllers for the hands,
/// a learned face for Hecate that takes over from the tracked one while it arrives.
@Suite struct WekinatorControlTests {
    @Test func handsSendControllers20OnTheirChannelOnlyWhenAValueChanges() throws {
        let output = RecordingMIDIOutput()
        let settings = MIDIRouterSettings(channels: .shared(channel: 3))
        let hands = HandsLiveInstrument(performer: try HandsPerformer(settings: settings), output: output, clock: nil)
        hands.receiveControls([0, 1, 0.5], at: 1)
        hands.receiveControls([0, 1, 0.502], at: 2)  // 0.502 × 127 rounds to 64 as before: nothing new
        hands.receiveControls([0.25, 1, 0.5], at: 3)
        let bytes = output.messages.withLock { $0 }.map { [$0.status, $0.data1, $0.data2] }
        // Control change on channel 3 is status 0xB2.
        #expect(bytes == [[0xB2, 20, 0], [0xB2, 21, 127], [0xB2, 22, 64], [0xB2, 20, 32]])
        #expect(hands.sent == 4)
    }

    @Test func hecatePlaysTheLearnedFaceAndIgnoresTheTrackedOneMeanwhile() {
        let host = EngineHost(engine: DroneSynthEngine(), spec: ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256, channelCount: 2))
        let hecate = HecateLiveInstrument(host: host, chords: [(0, NashvilleDegree.one)], clock: nil)
        var left = [Float](repeating: 0, count: 256), right = left
        /// Renders `seconds` and returns the newest snapshot.
        func play(_ seconds: Double) -> DroneSynthSnapshot? {
            left.withUnsafeMutableBufferPointer { l in
                right.withUnsafeMutableBufferPointer { r in
                    for _ in 0..<Int(seconds * 48_000 / 256) { host.process(left: l, right: r) }
                }
            }
            return host.latestSnapshot().snapshot
        }
        // Output 1 is browInnerUp: raised eyebrows add the 3rd.
        hecate.receiveControls([0, 1], at: 0)
        #expect((play(1)?.third ?? 0) > 0.95)
        // A tracked face without raised eyebrows, within 0.5 s of the outputs: Wekinator keeps playing.
        hecate.receive([TrackingFrame.face(FaceFrame(timestamp: 0.2))], at: 0.2)
        #expect((play(1)?.third ?? 0) > 0.95)
        // Once Wekinator is quiet for 0.5 s, the tracked face plays again.
        hecate.receive([TrackingFrame.face(FaceFrame(timestamp: 0.6))], at: 0.6)
        #expect((play(1)?.third ?? 1) < 0.05)
    }
}
