import Ariel
import Enobarbus
import Horatio
import InstrumentSettings
import LiveHost
import Prospero
import Studio
import Testing

/// Page fingers and OSC hands → notes. Expected notes from the zone rule (height = 1 − y, zone =
/// ⌊height × count⌋): C major pentatonic over 48…72 has the 11 zones 48 50 52 55 57 60 62 64 67 69 72,
/// so y 0.1 → zone 9 → 69, y 0.5 → zone 5 → 60, y 0.95 → zone 0 → 48.
@Suite("Hands studio controller")
struct HandsStudioControllerTests {
    func make(output: HandsOutput = .midi) throws -> (HandsStudioController, MIDIRecorder) {
        let midi = MIDIRecorder()
        var settings = HandsStudioSettings()
        settings.output = output
        return (try HandsStudioController(settings: settings, midiOut: midi), midi)
    }

    @Test("down plays the zone's note, up ends it")
    func downUp() throws {
        let (hands, midi) = try make()
        #expect(hands.touch(client: "a", id: 0, phase: .down, x: 0.5, y: 0.1, pressure: 0.5, at: 1))
        #expect(midi.noteOns == [69])
        #expect(midi.noteOnChannels == [1])
        #expect(hands.frame(now: 1)?.notes.map(\.note) == [69])
        #expect(hands.touch(client: "a", id: 0, phase: .up, x: 0.5, y: 0.1, pressure: 0, at: 1.1))
        #expect(midi.noteOffs == [69])
        #expect(midi.sounding.isEmpty)
        #expect(hands.frame(now: 1.1)?.notes.isEmpty == true)
    }

    @Test("a move to another zone changes the note; the stabiliser's glide ends on the finger's zone")
    func move() throws {
        let (hands, midi) = try make()
        hands.touch(client: "a", id: 0, phase: .down, x: 0.5, y: 0.1, pressure: 0.5, at: 1)
        hands.touch(client: "a", id: 0, phase: .move, x: 0.5, y: 0.95, pressure: 0.5, at: 1.02)
        for k in 1...20 { hands.advance(to: 1.02 + Double(k) * 0.02) }
        #expect(midi.noteOns.first == 69)
        #expect(midi.noteOns.last == 48)
        #expect(midi.sounding == [48])
    }

    @Test("cancel ends the note as up does")
    func cancel() throws {
        let (hands, midi) = try make()
        hands.touch(client: "a", id: 1, phase: .down, x: 0.2, y: 0.5, pressure: 1, at: 1)
        #expect(midi.sounding == [60])
        #expect(hands.touch(client: "a", id: 1, phase: .cancel, x: 0, y: 0, pressure: 0, at: 1.05))
        #expect(midi.sounding.isEmpty)
        #expect(midi.noteOffs == [60])
    }

    @Test("a finger resting still keeps its note however long no event comes")
    func heldStill() throws {
        let (hands, midi) = try make()
        hands.touch(client: "a", id: 0, phase: .down, x: 0.5, y: 0.5, pressure: 1, at: 1)
        hands.advance(to: 3)      // 2 s without a move, far past the 0.25 s OSC timeout
        hands.advance(to: 10)
        #expect(midi.noteOns == [60])
        #expect(midi.noteOffs.isEmpty)
    }

    @Test("four touch slots: a fifth finger is ignored and later fingers do not steal")
    func slotLimit() throws {
        let (hands, midi) = try make()
        let ys = [0.05, 0.3, 0.5, 0.7]          // zones 10, 7, 5, 3 → 72, 64, 60, 55
        for (k, y) in ys.enumerated() {
            #expect(hands.touch(client: "a", id: k, phase: .down, x: 0.5, y: y, pressure: 1, at: 1))
        }
        #expect(!hands.touch(client: "b", id: 0, phase: .down, x: 0.5, y: 0.95, pressure: 1, at: 1.01))
        #expect(!hands.touch(client: "b", id: 0, phase: .move, x: 0.5, y: 0.9, pressure: 1, at: 1.02))
        #expect(hands.ignoredFingerCount == 1)
        #expect(midi.sounding == [55, 60, 64, 72])
        // A freed slot goes to the next finger that lands.
        hands.touch(client: "a", id: 2, phase: .up, x: 0.5, y: 0.5, pressure: 0, at: 1.1)
        #expect(hands.touch(client: "b", id: 0, phase: .down, x: 0.5, y: 0.95, pressure: 1, at: 1.2))
        #expect(hands.pad.owners[2] == HandsPadSlots.Finger(client: "b", id: 0))
        #expect(midi.sounding == [48, 55, 64, 72])
    }

    @Test("a client that goes away ends every note its fingers held, and only those")
    func clientGone() throws {
        let (hands, midi) = try make()
        hands.touch(client: "phone", id: 0, phase: .down, x: 0.5, y: 0.1, pressure: 1, at: 1)
        hands.touch(client: "phone", id: 1, phase: .down, x: 0.5, y: 0.5, pressure: 1, at: 1)
        hands.touch(client: "laptop", id: 0, phase: .down, x: 0.5, y: 0.95, pressure: 1, at: 1)
        #expect(midi.sounding == [48, 60, 69])
        hands.clientGone("phone", at: 2)
        #expect(midi.sounding == [48])
        #expect(hands.pad.owners.compactMap { $0?.client } == ["laptop"])
        // A late event from the vanished page does nothing.
        #expect(!hands.touch(client: "phone", id: 0, phase: .move, x: 0.5, y: 0.3, pressure: 1, at: 2.1))
        #expect(midi.sounding == [48])
    }

    @Test("finish ends every note and sends All Notes Off")
    func finish() throws {
        let (hands, midi) = try make()
        hands.touch(client: "a", id: 0, phase: .down, x: 0.5, y: 0.5, pressure: 1, at: 1)
        hands.finish(at: 2)
        #expect(midi.sounding.isEmpty)
        #expect(midi.messages.contains { $0.status == 0xB0 && $0.data1 == 123 })
    }

    @Test("a key change moves the zones: a note that left the scale ends")
    func keyChange() throws {
        let (hands, midi) = try make()
        hands.touch(client: "a", id: 0, phase: .down, x: 0.5, y: 0.5, pressure: 1, at: 1)   // C4 = 60
        let changes = try hands.set("key", to: .text("D"), at: 1.1)
        #expect(changes["key"] == .text("D"))
        #expect(!midi.sounding.contains(60))                  // C is not in D major pentatonic
        hands.advance(to: 1.2)
        // D major pentatonic over 48…72: 50 52 54 57 59 62 64 66 69 71 (10 zones); y 0.5 → zone 5 → 62.
        #expect(midi.sounding == [62])
        #expect(hands.frets.map(\.note) == [50, 52, 54, 57, 59, 62, 64, 66, 69, 71])
    }

    @Test("per-hand channels: slot i plays on channel base + i; MPE gives each finger a member channel")
    func channels() throws {
        let (hands, midi) = try make()
        _ = try hands.set("channelMode", to: .text("perHand"), at: 0.5)
        _ = try hands.set("channel", to: .number(5), at: 0.5)
        hands.touch(client: "a", id: 0, phase: .down, x: 0.5, y: 0.5, pressure: 1, at: 1)
        hands.touch(client: "a", id: 1, phase: .down, x: 0.5, y: 0.1, pressure: 1, at: 1)
        #expect(midi.noteOnChannels == [5, 6])
        hands.touch(client: "a", id: 0, phase: .up, x: 0.5, y: 0.5, pressure: 1, at: 1.1)
        hands.touch(client: "a", id: 1, phase: .up, x: 0.5, y: 0.1, pressure: 1, at: 1.1)
        _ = try hands.set("channelMode", to: .text("mpe"), at: 1.2)
        hands.touch(client: "a", id: 0, phase: .down, x: 0.5, y: 0.5, pressure: 1, at: 2)
        hands.touch(client: "a", id: 1, phase: .down, x: 0.5, y: 0.1, pressure: 1, at: 2)
        let mpe = Array(midi.noteOnChannels.dropFirst(2))
        #expect(mpe.count == 2 && Set(mpe).count == 2 && mpe.allSatisfy { (2...16).contains($0) })
    }

    @Test("a new output ends the notes on the old one first")
    func outputChange() throws {
        let (hands, midi) = try make(output: .midi)
        hands.touch(client: "a", id: 0, phase: .down, x: 0.5, y: 0.5, pressure: 1, at: 1)
        let changes = try hands.set("output", to: .text("synth"), at: 1.1)
        #expect(changes == ["output": .text("synth")])
        #expect(midi.sounding.isEmpty)
        let before = midi.messages.count
        hands.advance(to: 1.2)
        #expect(midi.messages.count == before)                 // the synth plays it now, not midi_out
    }

    @Test("the synth plays the pad: its engine snapshot holds the finger's note")
    func synthSnapshot() throws {
        let (hands, _) = try make(output: .synth)
        hands.synth.prepare(.init(sampleRate: 48_000, maximumBlockSize: 512, channelCount: 2))
        hands.touch(client: "a", id: 0, phase: .down, x: 0.5, y: 0.1, pressure: 1, at: 1)
        var left = [Float](repeating: 0, count: 512), right = left
        var peak: Float = 0
        for _ in 0..<8 {     // 4096 frames: more than one snapshot interval (48 000 / 30 = 1600)
            left.withUnsafeMutableBufferPointer { l in right.withUnsafeMutableBufferPointer { r in hands.synth.process(left: l, right: r) } }
            peak = max(peak, left.map(abs).max() ?? 0)
        }
        #expect(hands.frame(now: 1.2)?.synthNotes == [69])
        #expect(peak > 0.01)
        hands.touch(client: "a", id: 0, phase: .up, x: 0.5, y: 0.1, pressure: 1, at: 1.3)
        for _ in 0..<8 {
            left.withUnsafeMutableBufferPointer { l in right.withUnsafeMutableBufferPointer { r in hands.synth.process(left: l, right: r) } }
        }
        #expect(hands.frame(now: 1.4)?.synthNotes.isEmpty == true)
    }

    @Test("OSC hands play and appear as skeletons; OSC touches keep off the page's slots")
    func oscHands() throws {
        let (hands, midi) = try make()
        // An open hand whose palm centre (wrist and four MCPs) sits at y 0.5 → 60.
        let landmarks = (0..<21).map { k in SIMD3<Float>(0.4 + Float(k % 5) * 0.02, 0.5, 0) }
        hands.receive([.hand(HandFrame(slot: 1, timestamp: 1, landmarks: landmarks, handedness: .right))], at: 1)
        let frame = try #require(hands.frame(now: 1))
        #expect(frame.hands.count == 1)
        #expect(frame.hands.first?.handedness == "right")
        #expect(frame.hands.first?.landmarks.count == 21)
        #expect(midi.sounding == [60])
        // The hand times out (no frames for longer than 0.25 s): its note ends and the skeleton goes.
        hands.advance(to: 2)
        #expect(midi.sounding.isEmpty)
        #expect(hands.frame(now: 2)?.hands.isEmpty == true)
        // A page finger holds touch slot 0; an OSC touch on slot 0 is dropped.
        hands.touch(client: "a", id: 0, phase: .down, x: 0.5, y: 0.1, pressure: 1, at: 3)
        hands.receive([.touch(TouchFrame(slot: 0, timestamp: 3.01, x: 0.5, y: 0.95))], at: 3.01)
        #expect(hands.droppedOSCTouchCount == 1)
        #expect(midi.sounding == [69])
    }

    @Test("the velocity dial's live mark follows the newest note's velocity")
    func velocityMark() throws {
        let (hands, _) = try make()
        hands.touch(client: "a", id: 0, phase: .down, x: 1, y: 0.5, pressure: 1, at: 1)
        let frame = try #require(hands.frame(now: 1))
        #expect(frame.velocity == 1)   // pressure 1 → the top of the default 40…127 velocity range
        hands.touch(client: "a", id: 0, phase: .up, x: 1, y: 0.5, pressure: 1, at: 1.1)
        #expect(hands.frame(now: 1.1)?.velocity == 0)
    }

    @Test("the velocity dial plays a finger that measured no force, and only that finger, until it measures")
    func velocityDial() throws {
        let (hands, midi) = try make()
        let changes = try hands.set("velocity", to: .number(45), at: 0.5)
        #expect(changes["velocity"] == .number(45))
        // Unmeasured: the dial's 45 exactly (not the placeholder 0.5's 40 + 0.5 × 87 ≈ 84).
        hands.touch(client: "a", id: 0, phase: .down, x: 0.5, y: 0.1, pressure: 0.5, measured: false, at: 1)
        // Measured, at pressure 0.5: the router's mapping, 40 + round(0.5 × 87) = 84.
        hands.touch(client: "a", id: 1, phase: .down, x: 0.5, y: 0.5, pressure: 0.5, at: 1)
        let ons = midi.messages.filter { $0.status & 0xF0 == 0x90 && $0.data2 > 0 }
        #expect(ons.map(\.data1) == [69, 60])
        #expect(ons.map(\.data2) == [45, 84])
        // An unmeasured move keeps the dial; a measured move (the page's speed) takes over for the next note.
        hands.touch(client: "a", id: 0, phase: .move, x: 0.5, y: 0.1, pressure: 0.3, measured: false, at: 1.05)
        hands.touch(client: "a", id: 0, phase: .move, x: 0.5, y: 0.95, pressure: 1, at: 1.1)
        for k in 1...20 { hands.advance(to: 1.1 + Double(k) * 0.02) }
        let after = midi.messages.filter { $0.status & 0xF0 == 0x90 && $0.data2 > 0 }
        #expect(after.last?.data1 == 48)
        #expect(after.last?.data2 == 127)
        // Outside the router's velocity range: refused, nothing changes.
        #expect(throws: HandsStudioSettingsError.self) { try hands.set("velocity", to: .number(20), at: 2) }
        #expect(hands.settings.velocity == 45)
    }

    @Test("the mod dial sends CC 1 on the hands' channels and is the synth's LFO depth")
    func modDial() throws {
        let (hands, midi) = try make(output: .both)
        let changes = try hands.set("mod", to: .number(100), at: 1)
        #expect(changes["mod"] == .number(100))
        #expect(changes["synth.lfoDepth"] == .number(100.0 / 127))
        #expect(hands.settings.synth.lfoDepth == 100.0 / 127)
        let cc1 = { midi.messages.filter { $0.status & 0xF0 == 0xB0 && $0.data1 == 1 } }
        #expect(cc1().map { [$0.status, $0.data2] } == [[0xB0, 100]])
        // The panel's LFO depth is the same value: the dial follows and the CC goes out.
        let panel = try hands.set("synth.lfoDepth", to: .number(0.5), at: 2)
        #expect(panel["mod"] == .number(64))
        #expect(cc1().last.map { [$0.status, $0.data2] } == [0xB0, 64])
        // One channel per hand: the mod wheel on each of the four.
        _ = try hands.set("channelMode", to: .text("perHand"), at: 3)
        #expect(Set(cc1().suffix(4).map { Int($0.status & 0x0F) + 1 }) == [1, 2, 3, 4])
        // MPE: on the zone's manager channel 1.
        _ = try hands.set("channelMode", to: .text("mpe"), at: 4)
        let before = cc1().count
        _ = try hands.set("mod", to: .number(7), at: 5)
        #expect(cc1().dropFirst(before).map { [$0.status, $0.data2] } == [[0xB0, 7]])
        #expect(throws: HandsStudioSettingsError.self) { try hands.set("mod", to: .number(128), at: 6) }
    }

    @Test("only the MIDI output hears CC 1; the synth alone hears it as its depth")
    func modDialSynthOnly() throws {
        let (hands, midi) = try make(output: .synth)
        _ = try hands.set("mod", to: .number(127), at: 1)
        #expect(midi.messages.isEmpty)
        #expect(hands.settings.synth.lfoDepth == 1)
    }

    /// A stand-in for the MIDI clock arriving at the audio driver.
    final class FixedClock: LiveClock, @unchecked Sendable {
        var bpm: Double?
    }

    @Test("Wekinator's outputs are controllers 20…31 on the hands' channel, changes only, as `prospero hands` sends them")
    func wekinatorOutputs() throws {
        let (hands, midi) = try make()
        // The command line's adapter with the same routing, for the same vectors.
        let cliMIDI = MIDIRecorder()
        let cli = HandsLiveInstrument(performer: try HandsPerformer(settings: HandsStudioSettings().routerSettings), output: cliMIDI, clock: nil)
        for (k, vector) in [[Float(0), 1], [0, 1], [0.5, 1, 0.25]].enumerated() {
            hands.receiveControls(vector, at: 1 + Double(k) * 0.02)
            cli.receiveControls(vector, at: 1 + Double(k) * 0.02)
        }
        let bytes = midi.messages.map { [$0.status, $0.data1, $0.data2] }
        #expect(bytes == [[0xB0, 20, 0], [0xB0, 21, 127], [0xB0, 20, 64], [0xB0, 22, 32]])
        #expect(bytes == cliMIDI.messages.map { [$0.status, $0.data1, $0.data2] })
        #expect(hands.sentCount == 4)
    }

    @Test("with the synth as the output, Wekinator's controllers go to the synth and not to midi_out")
    func wekinatorOutputsFollowTheOutputSetting() throws {
        let (hands, midi) = try make(output: .synth)
        hands.receiveControls([1], at: 1)
        #expect(midi.messages.isEmpty)
        #expect(hands.sentCount == 1)
    }

    @Test("the MIDI clock's tempo is in the live frame while a clock runs")
    func clockTempoInTheFrame() throws {
        let clock = FixedClock()
        let hands = try HandsStudioController(settings: HandsStudioSettings(), midiOut: MIDIRecorder(), clock: clock)
        clock.bpm = 132
        #expect(hands.frame(now: 1)?.clockBPM == 132)
        clock.bpm = nil
        let frame = hands.frame(now: 1.1)
        #expect(frame != nil && frame?.clockBPM == nil)
    }
}

