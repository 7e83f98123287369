import Ariel
import Foundation
import Testing

@Suite struct MIDILearnTests {
    enum Param: String, Hashable, Sendable, Codable { case cutoff, resonance, gate, bend }

    @Test func learnsTheFirstMovingControllerIgnoringClockAndStaticCCs() throws {
        var session = MIDILearnSession<Param>()
        session.arm(.cutoff, minimum: 20, maximum: 20_000)
        #expect(session.receive(.timingClock) == nil)
        #expect(session.receive(.start) == nil)
        // A device streaming CC7 = 100 constantly never gets bound.
        #expect(session.receive(.controlChange(channel: 0, controller: 7, value: 100)) == nil)
        #expect(session.receive(.controlChange(channel: 0, controller: 7, value: 100)) == nil)
        // CC 21 moves: first value is only remembered, the second (different) one binds.
        #expect(session.receive(.controlChange(channel: 2, controller: 21, value: 10)) == nil)
        let learned = session.receive(.controlChange(channel: 2, controller: 21, value: 11))
        let binding = try #require(learned)
        #expect(binding.parameter == .cutoff)
        #expect(binding.source == .controlChange(channel: 2, controller: 21))
        #expect(binding.minimum == 20 && binding.maximum == 20_000)
        #expect(!session.isArmed)
        #expect(session.receive(.controlChange(channel: 2, controller: 21, value: 50)) == nil)
    }

    @Test func learnsNotesAnd14BitPairs() throws {
        var session = MIDILearnSession<Param>()
        session.arm(.gate)
        #expect(session.receive(.noteOn(channel: 9, note: 36, velocity: 0)) == nil)  // a note-off is not a press
        let note = session.receive(.noteOn(channel: 9, note: 36, velocity: 90))
        #expect(note?.source == .note(channel: 9, note: 36))

        session.arm(.resonance)
        _ = session.receive(.controlChange(channel: 0, controller: 1, value: 64))
        _ = session.receive(.controlChange(channel: 0, controller: 33, value: 5))
        let pair = session.receive(.controlChange(channel: 0, controller: 1, value: 65))
        let b = try #require(pair)
        #expect(b.source == .controlChange14Bit(channel: 0, msbController: 1))
    }

    @Test func mappingAppliesRangeInversionAnd14BitResolution() {
        var table = MIDIMappingTable<Param>()
        table.add(MIDIBinding(parameter: .cutoff, source: .controlChange(channel: 0, controller: 21), minimum: 100, maximum: 1370))
        table.add(MIDIBinding(parameter: .resonance, source: .controlChange(channel: 0, controller: 21), inverted: true))
        table.add(MIDIBinding(parameter: .bend, source: .controlChange14Bit(channel: 1, msbController: 2), minimum: -1, maximum: 1))
        table.add(MIDIBinding(parameter: .gate, source: .note(channel: 0, note: 60)))

        let a = table.handle(.controlChange(channel: 0, controller: 21, value: 127))
        #expect(a.map(\.parameter) == [.cutoff, .resonance])
        #expect(a.map(\.value) == [1370, 0])
        let half = table.handle(.controlChange(channel: 0, controller: 21, value: 0))
        #expect(half.map(\.value) == [100, 1])
        #expect(table.handle(.controlChange(channel: 3, controller: 21, value: 5)).isEmpty)  // other channel

        // MSB 64 alone → 8192/16383; then LSB 127 → 8319/16383.
        let coarse = table.handle(.controlChange(channel: 1, controller: 2, value: 64))
        #expect(coarse.count == 1 && abs(coarse[0].value - (-1 + 2 * 8192.0 / 16383)) < 1e-12)
        let fine = table.handle(.controlChange(channel: 1, controller: 34, value: 127))
        #expect(fine.count == 1 && abs(fine[0].value - (-1 + 2 * 8319.0 / 16383)) < 1e-12)

        #expect(table.handle(.noteOn(channel: 0, note: 60, velocity: 127)).map(\.value) == [1])
        #expect(table.handle(.noteOn(channel: 0, note: 60, velocity: 0)).map(\.value) == [0])
        #expect(table.handle(.noteOff(channel: 0, note: 60, velocity: 64)).map(\.value) == [0])
        #expect(table.handle(.timingClock).isEmpty)

        // A parameter has one binding: adding again replaces.
        table.add(MIDIBinding(parameter: .cutoff, source: .pitchBend(channel: 0)))
        #expect(table.bindings.filter { $0.parameter == .cutoff }.count == 1)
    }

    @Test func bindingsRoundTripThroughJSON() throws {
        let table = MIDIMappingTable<Param>(bindings: [
            MIDIBinding(parameter: .cutoff, source: .controlChange14Bit(channel: 15, msbController: 31), minimum: 5, maximum: 9, inverted: true),
            MIDIBinding(parameter: .gate, source: .note(channel: 9, note: 127)),
        ])
        let data = try JSONEncoder().encode(table)
        let back = try JSONDecoder().decode(MIDIMappingTable<Param>.self, from: data)
        #expect(back.bindings == table.bindings)
        // Out-of-range values in a saved file are rejected, not clamped silently.
        let bad = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "15", with: "16")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(MIDIMappingTable<Param>.self, from: Data(bad.utf8)) }
    }
}
