import Ariel
import Horatio
import Prospero
import ProsperoTestSupport
import Testing

/// For seeded random performances over all eight hand and touch slots, with appearances,
/// losses, jumps, jitter and settings changes mid-stream: every note-on is matched by exactly one
/// note-off on the same channel and note, no source's note is cut while it holds it, MPE sources
/// never share a member channel, and after `stop` nothing is left sounding.
@Suite struct RouterPropertyTests {
    static func randomSettings(_ rng: inout SeededRandom) -> MIDIRouterSettings {
        let key = MusicalKey(rawValue: Int(rng.next() % 12))!
        let scale = Scale.allCases[Int(rng.next() % UInt64(Scale.allCases.count))]
        let low = 24 + Int(rng.next() % 48)
        let high = low + 12 + Int(rng.next() % 36)
        let channels: MIDIRouterSettings.ChannelAssignment
        switch rng.next() % 3 {
        case 0: channels = .shared(channel: 1 + Int(rng.next() % 16))
        case 1: channels = .perSlot(channels: (0..<4).map { _ in 1 + Int(rng.next() % 3) })
        default: channels = .mpe(memberChannels: 1 + Int(rng.next() % 15))
        }
        return MIDIRouterSettings(key: key, scale: scale, lowestNote: low, highestNote: high, channels: channels,
                                  hysteresis: rng.uniform() * 0.5, depthController: rng.next() % 2 == 0 ? nil : 21,
                                  bendWithinZone: rng.next() % 2 == 0,
                                  velocity: [.fingerCount, .depth, .fixed(90), .verticalSpeed(fullScale: 2)][Int(rng.next() % 4)])
    }

    @Test(arguments: 0..<40 as Range<UInt64>)
    func notesPairUpAndNothingIsCutOrLeftSounding(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed &* 7919 &+ 1)
        var router = try MIDIRouter(settings: Self.randomSettings(&rng))
        let ids = InputSourceID.slots.map { InputSourceID.hand($0) } + InputSourceID.slots.map { InputSourceID.touch($0) }
        var positions: [InputSourceID: RouterInput] = [:]
        var sounding = Set<[UInt8]>()   // [channel, note]
        var noteOns = 0
        var failures: [String] = []
        func check(_ messages: [RoutedMIDIMessage], step: Int) {
            for m in messages {
                switch m.message {
                case .noteOn(let c, let n, let v) where v.rawValue > 0:
                    noteOns += 1
                    if !sounding.insert([c.rawValue, n.rawValue]).inserted { failures.append("step \(step): second note-on \(c) \(n)") }
                case .noteOff(let c, let n, _):
                    if sounding.remove([c.rawValue, n.rawValue]) == nil { failures.append("step \(step): note-off for silent \(c) \(n)") }
                default:
                    break
                }
            }
        }
        var time = 0.0
        for step in 0..<600 {
            time += 0.005 + rng.uniform() * 0.03
            for id in ids {
                let r = rng.uniform()
                if positions[id] == nil {
                    if r < 0.08 {
                        positions[id] = RouterInput(source: id, x: rng.uniform(), y: rng.uniform(), expression: rng.uniform(), depth: rng.uniform())
                    }
                } else if r < 0.04 {
                    positions[id] = nil
                } else if r < 0.10 {
                    positions[id]!.y = rng.uniform()  // a jump
                } else {
                    positions[id]!.y = min(max(positions[id]!.y + (rng.uniform() - 0.5) * 0.04, -0.05), 1.05)
                    positions[id]!.x = rng.uniform()
                    positions[id]!.depth = rng.uniform()
                }
            }
            if rng.uniform() < 0.02 {
                check(try router.updateRoutes(Self.randomSettings(&rng), at: time), step: step)
            }
            check(router.process(Array(positions.values), at: time), step: step)
            // Every note a source holds is sounding: no other source's note-off cut it.
            for (id, voice) in router.activeNotes where !sounding.contains([voice.channel.rawValue, UInt8(voice.note)]) {
                failures.append("step \(step): \(id)'s \(voice.note) on \(voice.channel) was cut")
            }
            if router.settings.channels.isMPE {
                let channels = router.activeNotes.values.map(\.channel)
                if Set(channels).count != channels.count { failures.append("step \(step): MPE channel shared") }
            }
        }
        check(router.stop(at: time + 1), step: 600)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(sounding.isEmpty, "left sounding: \(sounding)")
        #expect(router.activeNotes.isEmpty)
        #expect(noteOns > 20, "the performance must actually play")
    }
}
