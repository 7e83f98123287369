import Ariel
import Horatio
import Prospero
import Testing

@Suite struct MPETests {
    @Test func startSendsTheConfigurationMessageAndMemberBendRanges() throws {
        var router = try MIDIRouter(settings: MIDIRouterSettings(channels: .mpe(memberChannels: 3)))
        let setup = bytes(router.process([], at: 0))
        // MCM: RPN 6 on the manager channel 1 (status B0): CC101 0, CC100 6, CC6 = 3 members, then RPN null.
        #expect(Array(setup.prefix(5)) == [[0xB0, 101, 0], [0xB0, 100, 6], [0xB0, 6, 3], [0xB0, 101, 127], [0xB0, 100, 127]])
        // Members 2, 3, 4 (B1, B2, B3): RPN 0 = 48 semitones, 0 cents.
        for (k, status) in [UInt8(0xB1), 0xB2, 0xB3].enumerated() {
            let start = 5 + 6 * k
            #expect(Array(setup[start..<start + 6]) == [[status, 101, 0], [status, 100, 0], [status, 6, 48], [status, 38, 0],
                                                        [status, 101, 127], [status, 100, 127]])
        }
        // The manager channel keeps the usual ±2.
        #expect(Array(setup.suffix(6)) == [[0xB0, 101, 0], [0xB0, 100, 0], [0xB0, 6, 2], [0xB0, 38, 0], [0xB0, 101, 127], [0xB0, 100, 127]])
        #expect(setup.count == 5 + 18 + 6)
    }

    @Test func eachSourceGetsItsOwnMemberChannelWithBendTimbreAndPressure() throws {
        var router = try MIDIRouter(settings: MIDIRouterSettings(channels: .mpe(memberChannels: 2), expressionController: nil))
        _ = router.process([], at: 0)
        // Zone 9's centre: height 9.5 / 11 → no bend (8192 = LSB 0, MSB 64). x 0.25 → CC74 round(31.75) = 32;
        // depth 0.5 → channel pressure round(63.5) = 64. All before the note-on, on member channel 2 (index 1).
        let first = bytes(router.process([hand(0, x: 0.25, y: 1 - 9.5 / 11, depth: 0.5)], at: 0.01))
        #expect(first == [[0xB1, 74, 32], [0xD1, 64], [0xE1, 0, 64], [0x91, 69, 127]])
        // A second hand takes member channel 3.
        let second = bytes(router.process([hand(0, x: 0.25, y: 1 - 9.5 / 11, depth: 0.5),
                                           hand(1, x: 1, y: 1 - 5.5 / 11, depth: 1)], at: 0.02))
        #expect(second == [[0xB2, 74, 127], [0xD2, 127], [0xE2, 0, 64], [0x92, 60, 127]])
        // Hand 0 slides a quarter zone up: +0.25 × 3 semitones (69 → 72) of ±48 = 0.015625 →
        // 8192 + round(0.015625 × 8191) = 8320 = MSB 65, LSB 0; only its own channel bends.
        let slide = bytes(router.process([hand(0, x: 0.25, y: 1 - 9.75 / 11, depth: 0.5),
                                          hand(1, x: 1, y: 1 - 5.5 / 11, depth: 1)], at: 0.1))
        #expect(slide == [[0xE1, 0, 65]])
        // A third hand finds no free member channel: it stays silent and is counted.
        _ = router.process([hand(0, x: 0.25, y: 1 - 9.75 / 11, depth: 0.5), hand(1, x: 1, y: 1 - 5.5 / 11, depth: 1),
                            hand(2, y: 0.5)], at: 0.2)
        #expect(router.activeNotes[.hand(2)] == nil)
        #expect(router.unroutedSourceCount == 1)
        // Hand 0 leaves: note-off and its channel's bend back to centre.
        let lost = bytes(router.process([hand(1, x: 1, y: 1 - 5.5 / 11, depth: 1)], at: 0.3))
        #expect(lost == [[0x81, 69, 0], [0xE1, 0, 64]])
        #expect(bytes(router.stop(at: 0.4)) == [[0x82, 60, 0], [0xB1, 123, 0], [0xB2, 123, 0]])
    }

    @Test func leavingMPETurnsTheZoneOff() throws {
        var router = try MIDIRouter(settings: MIDIRouterSettings(channels: .mpe(memberChannels: 15)))
        _ = router.process([hand(0, y: 0.1)], at: 0)
        var next = router.settings
        next.channels = .shared(channel: 1)
        next.bendRange = 2
        let out = bytes(try router.updateRoutes(next, at: 1))
        #expect(out == [[0x81, 69, 0],
                        [0xB0, 101, 0], [0xB0, 100, 6], [0xB0, 6, 0], [0xB0, 101, 127], [0xB0, 100, 127]])
    }
}
