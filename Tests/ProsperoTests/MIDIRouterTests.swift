import Ariel
import Foundation
import Horatio
import Prospero
import ProsperoTestSupport
import Testing

/// Wire bytes of routed messages, for comparing with hand-worked expectations.
func bytes(_ messages: [RoutedMIDIMessage]) -> [[UInt8]] { messages.map { $0.message.shortMessage!.bytes } }

func hand(_ slot: Int, x: Double = 0.5, y: Double, expression: Double = 1, depth: Double = 0) -> RouterInput {
    RouterInput(source: .hand(slot), x: x, y: y, expression: expression, depth: depth)
}

@Suite struct MIDIRouterTests {
    /// C major pentatonic over 48…72: 48 50 52 55 57 60 62 64 67 69 72, eleven zones.
    @Test func aScriptedHandPlaysTheWorkedOutNotesAndControllers() throws {
        var router = try MIDIRouter(settings: MIDIRouterSettings())
        #expect(router.layout.notes == [48, 50, 52, 55, 57, 60, 62, 64, 67, 69, 72])
        // y 0.1 → height 0.9 → Int(0.9 × 11) = Int(9.9) = zone 9 → 69. x 0.5 → CC74 round(63.5) = 64;
        // five fingers → CC11 127 and velocity 40 + 87 = 127.
        #expect(bytes(router.process([hand(0, y: 0.1)], at: 0)) == [[0xB0, 74, 64], [0xB0, 11, 127], [0x90, 69, 127]])
        // Same place: nothing changed, nothing sent.
        #expect(router.process([hand(0, y: 0.1)], at: 0.02).isEmpty)
        // y 0.5 → height 0.5 → Int(5.5) = zone 5 → 60; three fingers → CC11 round(0.6 × 127) = 76,
        // velocity 40 + round(0.6 × 87) = 92.
        #expect(bytes(router.process([hand(0, y: 0.5, expression: 0.6)], at: 0.04))
            == [[0x80, 69, 0], [0xB0, 11, 76], [0x90, 60, 92]])
        // y 0.95 → height 0.05 → zone 0 → 48.
        #expect(bytes(router.process([hand(0, y: 0.95, expression: 0.6)], at: 0.06)) == [[0x80, 60, 0], [0x90, 48, 92]])
        // The hand is lost: its note ends.
        #expect(bytes(router.process([], at: 0.08)) == [[0x80, 48, 0]])
        #expect(bytes(router.stop(at: 0.1)) == [[0xB0, 123, 0]])
    }

    @Test func aTouchSessionInDDorianOnChannel5() throws {
        let settings = MIDIRouterSettings(key: .d, scale: .dorian, lowestNote: 60, highestNote: 72,
                                          channels: .shared(channel: 5), expressionController: nil, velocity: .fixed(100))
        var router = try MIDIRouter(settings: settings)
        // D dorian in 60…72: 60 62 64 65 67 69 71 72 (C D E F G A B C), eight zones of 0.125.
        #expect(router.layout.notes == [60, 62, 64, 65, 67, 69, 71, 72])
        let touch = { (x: Double, y: Double) in RouterInput(source: .touch(2), x: x, y: y, expression: 1, depth: 1) }
        // y 0.7 → height 0.3 → Int(2.4) = zone 2 → 64; x 0 → CC74 0 on channel 5 (status B4).
        #expect(bytes(router.process([touch(0, 0.7)], at: 0)) == [[0xB4, 74, 0], [0x94, 64, 100]])
        // x 1 → CC74 127; y 0.3 → height 0.7 → Int(5.6) = zone 5 → 69.
        #expect(bytes(router.process([touch(1, 0.3)], at: 0.1)) == [[0x84, 64, 0], [0xB4, 74, 127], [0x94, 69, 100]])
        #expect(bytes(router.stop(at: 0.2)) == [[0x84, 69, 0], [0xB4, 123, 0]])
    }

    @Test func aHandHoveringOnAFretWithJitterPlaysOneNote() throws {
        // The fret between zones 5 and 6 is at height 6/11 ≈ 0.54545; jitter ±0.01 stays inside
        // the hysteresis margin 0.25 / 11 ≈ 0.0227.
        var rng = SeededRandom(seed: 7)
        func hover(margin: Double) throws -> Int {
            var router = try MIDIRouter(settings: MIDIRouterSettings(hysteresis: margin))
            var noteOns = 0
            for k in 0..<200 {
                let height = 6.0 / 11 + (rng.uniform() * 2 - 1) * 0.01
                let out = router.process([hand(0, y: 1 - height)], at: Double(k) * 0.016)
                noteOns += out.filter { if case .noteOn = $0.message { return true } else { return false } }.count
            }
            return noteOns
        }
        #expect(try hover(margin: 0.25) == 1)
        // Without hysteresis the same hand retriggers over and over: the test can tell.
        #expect(try hover(margin: 0) > 20)
    }

    @Test func controllersAreSentOnlyOnChangeAndAtMostAtTheRateLimit() throws {
        var router = try MIDIRouter(settings: MIDIRouterSettings(expressionController: nil, controllerRateLimit: 100))
        _ = router.process([hand(0, x: 0.5, y: 0.5)], at: 0)
        // 0.5 and 0.501 are both CC value 64: nothing to send.
        #expect(router.process([hand(0, x: 0.501, y: 0.5)], at: 0.05).isEmpty)
        // A change 50 ms after the last send goes out at once.
        #expect(bytes(router.process([hand(0, x: 0.6, y: 0.5)], at: 0.1)) == [[0xB0, 74, 76]])
        // 2 ms later (limit 100/s = 10 ms): held back …
        #expect(router.process([hand(0, x: 0.7, y: 0.5)], at: 0.102).isEmpty)
        #expect(router.flush(at: 0.105).isEmpty)
        // … and sent with its latest value once 10 ms have passed.
        #expect(router.process([hand(0, x: 0.8, y: 0.5)], at: 0.104).isEmpty)
        #expect(bytes(router.flush(at: 0.111)) == [[0xB0, 74, 102]])
        #expect(router.flush(at: 0.2).isEmpty)
    }

    @Test func sourcesSharingANoteOnOneChannelDoNotCutEachOther() throws {
        var router = try MIDIRouter(settings: MIDIRouterSettings(horizontalController: nil, expressionController: nil))
        let touch = RouterInput(source: .touch(0), x: 0.2, y: 0.1)
        #expect(bytes(router.process([hand(0, y: 0.1)], at: 0)) == [[0x90, 69, 127]])
        // The touch joins the same note: already sounding, no second note-on.
        #expect(router.process([hand(0, y: 0.1), touch], at: 0.1).isEmpty)
        // The hand leaves: the touch still holds 69, so no note-off.
        #expect(router.process([touch], at: 0.2).isEmpty)
        #expect(router.activeNotes[.touch(0)]?.note == 69)
        #expect(bytes(router.process([], at: 0.3)) == [[0x80, 69, 0]])
    }

    @Test func perSlotChannelsAndControllersFollowTheOldestSourceOnASharedChannel() throws {
        var router = try MIDIRouter(settings: MIDIRouterSettings(channels: .perSlot(channels: [1, 2, 3, 4]),
                                                                 expressionController: nil))
        // Hand 1 on channel 2 (status 0x91), hand 0 on channel 1.
        #expect(bytes(router.process([hand(1, x: 0, y: 0.1)], at: 0)) == [[0xB1, 74, 0], [0x91, 69, 127]])
        #expect(bytes(router.process([hand(1, x: 0, y: 0.1), hand(0, x: 1, y: 0.95)], at: 0.1))
            == [[0xB0, 74, 127], [0x90, 48, 127]])
        // Touch 1 shares channel 2 with hand 1, which came first and keeps the controllers.
        let touch = RouterInput(source: .touch(1), x: 1, y: 0.5)
        #expect(bytes(router.process([hand(1, x: 0, y: 0.1), hand(0, x: 1, y: 0.95), touch], at: 0.2)) == [[0x91, 60, 127]])
        // Hand 1 leaves: its note ends and the touch takes the channel's controllers over.
        #expect(bytes(router.process([hand(0, x: 1, y: 0.95), touch], at: 0.3)) == [[0x81, 69, 0], [0xB1, 74, 127]])
    }

    @Test func bendInsideAZoneIsContinuousAcrossTheFret() throws {
        var router = try MIDIRouter(settings: MIDIRouterSettings(horizontalController: nil, expressionController: nil,
                                                                 bendWithinZone: true, bendRange: 2))
        let setup = router.process([], at: 0)
        // RPN 0 = 2 semitones on channel 1 first.
        #expect(bytes(setup) == [[0xB0, 101, 0], [0xB0, 100, 0], [0xB0, 6, 2], [0xB0, 38, 0], [0xB0, 101, 127], [0xB0, 100, 127]])
        // Height (9 + 0.75) / 11: zone 9 (69), a quarter zone above its centre; the next note is 72,
        // 3 semitones up, so the bend is 0.25 × 3 = 0.75 semitone = 0.375 of the range:
        // 8192 + round(0.375 × 8191) = 11264 = MSB 88, LSB 0.
        let out = router.process([hand(0, y: 1 - 9.75 / 11)], at: 0.01)
        #expect(bytes(out) == [[0xE0, 0, 88], [0x90, 69, 127]])
        // The hand is gone and nobody else plays channel 1: bend was re-centred.
        var again = try MIDIRouter(settings: router.settings)
        _ = again.process([hand(0, y: 1 - 9.75 / 11)], at: 0)
        #expect(bytes(again.process([], at: 0.1)) == [[0x80, 69, 0], [0xE0, 0, 64]])
    }

    @Test func velocityFromVerticalSpeed() throws {
        var router = try MIDIRouter(settings: MIDIRouterSettings(horizontalController: nil, expressionController: nil,
                                                                 velocity: .verticalSpeed(fullScale: 2)))
        // First appearance: no speed yet → minimum velocity 40.
        #expect(bytes(router.process([hand(0, y: 0.1)], at: 0)) == [[0x90, 69, 40]])
        // Down 0.4 screen heights in 0.2 s = 2/s = full scale → 127.
        #expect(bytes(router.process([hand(0, y: 0.5)], at: 0.2)) == [[0x80, 69, 0], [0x90, 60, 127]])
        // 0.4 in 0.5 s = 0.8/s = 0.4 of full scale → 40 + round(0.4 × 87) = 40 + 35 = 75; height 0.1 → zone 1 → 50.
        #expect(bytes(router.process([hand(0, y: 0.9)], at: 0.7)) == [[0x80, 60, 0], [0x90, 50, 75]])
    }

    @Test func updateRoutesReleasesNotesThatNoLongerFit() throws {
        var router = try MIDIRouter(settings: MIDIRouterSettings(horizontalController: nil, expressionController: nil))
        _ = router.process([hand(0, y: 0.1), hand(1, y: 0.5)], at: 0)   // 69 and 60
        // C major over 60…72 keeps 69 (A) and 60 (C) in the zone list; A minor pentatonic 48…60 drops 69.
        var next = router.settings
        next.lowestNote = 48
        next.highestNote = 60
        next.scale = .minorPentatonic
        next.key = .a
        let out = try router.updateRoutes(next, at: 1)
        #expect(bytes(out) == [[0x80, 69, 0]])
        // Hand 0 plays again from its next input, in the new zones: A minor pentatonic 48…60 is
        // 48 50 52 55 57 60 (C D E G A C): y 0.1 → Int(0.9 × 6) = 5 → 60, which hand 1 holds, so no
        // note-on; hand 1's zones were rebuilt too: y 0.5 → Int(3.0) = 3 → 55. 60 keeps sounding for hand 0.
        #expect(bytes(router.process([hand(0, y: 0.1), hand(1, y: 0.5)], at: 1.1)) == [[0x90, 55, 127]])
        #expect(router.activeNotes[.hand(0)]?.note == 60)
        // Channel changes release everything.
        next.channels = .shared(channel: 2)
        #expect(bytes(try router.updateRoutes(next, at: 2)) == [[0x80, 60, 0], [0x80, 55, 0]])
        #expect(bytes(router.process([hand(1, y: 0.5)], at: 2.1)).last == [0x91, 55, 127])
    }

    @Test func settingsValidationNamesTheField() throws {
        func field(_ s: MIDIRouterSettings) -> String? {
            do { try s.validate(); return nil } catch { return error.field }
        }
        #expect(field(MIDIRouterSettings()) == nil)
        #expect(field(MIDIRouterSettings(lowestNote: 60, highestNote: 50)) == "highestNote")
        #expect(field(MIDIRouterSettings(lowestNote: -1)) == "lowestNote")
        #expect(field(MIDIRouterSettings(lowestNote: 61, highestNote: 61)) == "lowestNote")  // C# not in C major pentatonic
        #expect(field(MIDIRouterSettings(channels: .shared(channel: 17))) == "channels")
        #expect(field(MIDIRouterSettings(channels: .perSlot(channels: [1, 2]))) == "channels")
        #expect(field(MIDIRouterSettings(channels: .mpe(memberChannels: 16))) == "channels")
        #expect(field(MIDIRouterSettings(hysteresis: 0.6)) == "hysteresis")
        #expect(field(MIDIRouterSettings(horizontalController: 123)) == "horizontalController")
        #expect(field(MIDIRouterSettings(depthController: 128)) == "depthController")
        #expect(field(MIDIRouterSettings(bendRange: 0)) == "bendRange")
        #expect(field(MIDIRouterSettings(velocity: .fixed(0))) == "velocity")
        #expect(field(MIDIRouterSettings(minimumVelocity: 100, maximumVelocity: 90)) == "maximumVelocity")
        #expect(field(MIDIRouterSettings(controllerRateLimit: .nan)) == "controllerRateLimit")
        #expect(throws: MIDIRouterSettingsError.self) { try MIDIRouter(settings: MIDIRouterSettings(highestNote: 200)) }
    }

    @Test func settingsRoundTripThroughJSON() throws {
        let settings = MIDIRouterSettings(key: .fSharp, scale: .blues, channels: .mpe(memberChannels: 7), depthController: 21,
                                          velocity: .verticalSpeed(fullScale: 1.5))
        let data = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(MIDIRouterSettings.self, from: data) == settings)
        #expect(settings.bendRange == 48)
        #expect(try MIDIRouterSettings.decoded(fromJSON: data) == settings)
        func field(_ json: String) -> String? {
            do { _ = try MIDIRouterSettings.decoded(fromJSON: Data(json.utf8)); return nil } catch { return error.field }
        }
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["highestNote"] = 130
        #expect(field(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)) == "highestNote")
        object["highestNote"] = "high"
        #expect(field(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)) == "highestNote")
        object["highestNote"] = nil
        #expect(field(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)) == "highestNote")
        #expect(field("[1, 2]") == "(document)")
        #expect(field("{") == "(document)")
    }
}
