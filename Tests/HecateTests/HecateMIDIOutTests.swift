import AllocationCounting
import Ariel
import Enobarbus
import Foundation
import Hecate
import Horatio
import Testing
import Touchstone

/// Hecate's sound as MIDI (`HecateMIDIMap`), derived offline from the engine's own state: a recorded
/// face performance, the arpeggiator, chord changes, a level at the threshold, MIDI out turned off,
/// a full outbox; every note-on paired with its note-off.
@Suite struct HecateMIDIOutTests {
    typealias Event = EngineMIDIOutbox.Event

    /// Renders `seconds` of `engine` in `block`-frame blocks with commands at their seconds, draining
    /// the engine's MIDI after every block (unless `drainEvery` says less often); returns what it played.
    static func renderMIDI(_ engine: DroneSynthEngine = DroneSynthEngine(preset: measuringPreset()), seconds: Double,
                           commands: [(Double, DroneSynthEngine.Command)], block: Int = 256, drainEvery: Int = 1,
                           sampleRate: Double = 48_000) -> [Event] {
        let host = EngineHost(engine: engine, spec: ProcessSpec(sampleRate: sampleRate, maximumBlockSize: block, channelCount: 2))
        let scheduled = commands.map { (Int(($0.0 * sampleRate).rounded()), $0.1) }.sorted { $0.0 < $1.0 }
        let total = Int(seconds * sampleRate)
        var left = [Float](repeating: 0, count: block), right = left
        var events: [Event] = []
        var next = 0, position = 0, blocks = 0
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                while position < total {
                    while next < scheduled.count && scheduled[next].0 <= position {
                        host.send(scheduled[next].1)
                        next += 1
                    }
                    var end = min(total, position + block)
                    if next < scheduled.count { end = min(end, max(position + 1, scheduled[next].0)) }
                    host.process(left: UnsafeMutableBufferPointer(rebasing: l[0..<(end - position)]),
                                 right: UnsafeMutableBufferPointer(rebasing: r[0..<(end - position)]))
                    position = end
                    blocks += 1
                    if blocks % drainEvery == 0 { engine.midiOutbox.drain { events.append($0) } }
                }
            }
        }
        engine.midiOutbox.drain { events.append($0) }
        return events
    }

    /// Note-on/off pairs per note: (note, on frame, off frame or nil, velocity); and the problems found
    /// (a note-on of a sounding note, a note-off of a silent one).
    static func notes(_ events: [Event], channel: UInt8 = 0) -> (notes: [(note: Int, on: Int64, off: Int64?, velocity: Int)], problems: [String]) {
        var open: [Int: (Int64, Int)] = [:]
        var result: [(note: Int, on: Int64, off: Int64?, velocity: Int)] = []
        var problems: [String] = []
        for e in events {
            let m = e.message
            guard m.status & 0x0F == channel else { problems.append("message on another channel: \(m)"); continue }
            switch m.status & 0xF0 {
            case 0x90 where m.data2 > 0:
                if open[Int(m.data1)] != nil { problems.append("note \(m.data1) on twice at frame \(e.frame)") }
                open[Int(m.data1)] = (e.frame, Int(m.data2))
            case 0x80, 0x90:
                guard let (on, velocity) = open.removeValue(forKey: Int(m.data1)) else {
                    problems.append("note-off of silent note \(m.data1) at frame \(e.frame)")
                    continue
                }
                result.append((Int(m.data1), on, e.frame, velocity))
            case 0xA0:
                if open[Int(m.data1)] == nil { problems.append("pressure of silent note \(m.data1) at frame \(e.frame)") }
            default: break
            }
        }
        for (note, (on, velocity)) in open { result.append((note, on, nil, velocity)) }
        return (result.sorted { $0.on < $1.on }, problems)
    }

    /// (frame, value) of every message of controller `number`.
    static func controller(_ number: UInt8, in events: [Event]) -> [(frame: Int64, value: Int)] {
        events.filter { $0.message.status & 0xF0 == 0xB0 && $0.message.data1 == number }.map { ($0.frame, Int($0.message.data2)) }
    }

    static func face(root: Float = 1, third: Float = 0, fifth: Float = 0, seventh: Float = 0, ninth: Float = 0, bass: Float = 0,
                     cutoff: Float = 0) -> DroneSynthEngine.Command {
        .face(FaceAmounts(root: root, third: third, fifth: fifth, seventh: seventh, ninth: ninth, octave: 0, bass: bass,
                          cutoff: cutoff, resonance: 0, formantF1: 0, formantF2: 0, brightness: 0))
    }

    // MARK: A recorded face performance

    /// examples/face-performance.jsonl rendered as `prospero hecate --input … --midi-out` does.
    static func performance(channel: Int = 3) throws -> (events: [Event], lead: Double) {
        let recording = try RecordingReader.parse(Array(try Data(contentsOf: HecatePerformanceTests.performanceFile)))
        var events: [Event] = []
        _ = try HecateRecordingRender.render(
            recording, engine: DroneSynthEngine(), initial: [.midiOut(channel: channel)], chords: [],
            options: HecateRecordingRender.options(sampleRate: 48_000, format: .float32), to: WAVMemorySink(),
            midi: { events.append($0) })
        return (events, HecateRecordingRender.lead)
    }

    @Test func aFacePerformancePlaysItsVoicesAsPairedNotes() throws {
        let (events, lead) = try Self.performance()
        let (notes, problems) = Self.notes(events, channel: 2)
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        // Every note-on has its note-off, and All Notes Off closes the take.
        #expect(notes.allSatisfy { $0.off != nil })
        #expect(events.last?.message == MIDIShortMessage(status: 0xB2, data1: 123, data2: 0))
        // C major, chord I: root C3, third E3, fifth G3, seventh B3, octave C4, ninth D4, bass C2.
        let voicing = DroneVoicing(key: .c, degree: .one)
        #expect(voicing.tones == [48, 52, 55, 59, 62, 60] && voicing.bass == 36)
        let played = Set(notes.map(\.note))
        #expect(played == [48, 52, 55, 59, 62, 60, 36], "\(played.sorted())")
        func ons(_ note: Int) -> [Double] { notes.filter { $0.note == note }.map { Double($0.on) / 48_000 - lead } }
        func offs(_ note: Int) -> [Double] { notes.filter { $0.note == note }.compactMap { $0.off.map { Double($0) / 48_000 - lead } } }
        // No chatter: each voice starts once per phrase of the script that voices it: the brows lift twice
        // (10.5…16.5 s, 19.5…31 s) before the face is lost (31.0…32.5 s); the bass only in the first half.
        let phrases: [Int: (before: Int, after: Int)] = [48: (1, 1), 55: (1, 1), 36: (1, 0), 52: (2, 1), 59: (1, 1), 62: (1, 1), 60: (1, 1)]
        for (note, count) in phrases {
            let before = ons(note).filter { $0 < 31 }.count, after = ons(note).filter { $0 > 31 }.count
            #expect(before == count.before && after == count.after, "note \(note) starts \(ons(note))")
        }
        // The root drones from the launch fade-in; the jaw brings the 5th (2…4 s) and then the bass (5.5…7 s);
        // the brows the 3rd (9.5…10.5 s); the cheeks the 7th (12.5…13.5 s); the pucker the 9th (15.5…16.5 s).
        #expect(ons(48).first.map { $0 < 0 } == true)
        #expect(ons(55).first.map { (2...4).contains($0) } == true, "\(ons(55))")
        #expect(ons(36).first.map { (5.5...7).contains($0) } == true, "\(ons(36))")
        #expect(offs(36).first.map { (8.5...9.5).contains($0) } == true, "\(offs(36))")
        #expect(ons(52).first.map { (9.5...10.5).contains($0) } == true, "\(ons(52))")
        #expect(ons(59).first.map { (12.5...13.5).contains($0) } == true, "\(ons(59))")
        #expect(ons(62).first.map { (15.5...16.5).contains($0) } == true, "\(ons(62))")
        // The face lost (no frames after 31.0 s, 0.25 s timeout, 100 ms fade): every note ends by 31.4 s;
        // found again at 32.5 s: the root, 3rd and 5th come back.
        let sounding = notes.filter { $0.on < 31 * 48_000 && ($0.off ?? 0) > Int64((lead + 31) * 48_000) }
        #expect(sounding.allSatisfy { Double($0.off!) / 48_000 - lead < 31.4 }, "\(sounding)")
        for note in [48, 52, 55] { #expect(ons(note).contains { (32.5...34).contains($0) }, "note \(note): \(ons(note))") }
        // Velocity and pressure from the face's level: the jaw at 0.45 holds the 5th at 0.9 (pressure 127·√0.9 = 120);
        // the 5th starts softly as the jaw begins to open (2 s) and swells by pressure.
        let pressure5th = events.filter { $0.message.status == 0xA2 && $0.message.data1 == 55 }
        #expect(pressure5th.contains { $0.message.data2 == 120 })
        #expect(notes.first { $0.note == 55 }.map { $0.velocity < 64 } == true)
        #expect(notes.first { $0.note == 48 }?.velocity == 127)
    }

    @Test func theSculptingGoesOutAsThinnedControllers() throws {
        let (events, lead) = try Self.performance()
        let frameOf = { (seconds: Double) in Int64((seconds + lead) * 48_000) }
        for number in HecateMIDIMap.controllers.map(\.number) {
            let messages = Self.controller(number, in: events)
            #expect(!messages.isEmpty, "CC \(number) never sent")
            // Only changes (but all of them again when the face is found at 32.5 s), at most one per 10 ms.
            for (a, b) in zip(messages, messages.dropFirst()) {
                if b.frame < frameOf(32.5) { #expect(a.value != b.value, "CC \(number) repeats \(a.value)") }
                #expect(b.frame - a.frame >= 480, "CC \(number) twice within \(b.frame - a.frame) frames")
            }
        }
        func peak(_ number: UInt8, _ from: Double, _ to: Double) -> Int {
            Self.controller(number, in: events).filter { (frameOf(from)...frameOf(to)).contains($0.frame) }.map(\.value).max() ?? -1
        }
        // Head turn 22° of 45 (0.244 from centre of 0.25) opens the cutoff; the tilt (10° of 45) the resonance;
        // the smile the brightness; the face fade is CC 11: 0 when lost, 127 in view.
        #expect(peak(HecateMIDIMap.cutoff, 19.5, 21.5) >= 120)
        #expect((0...8).contains(peak(HecateMIDIMap.cutoff, 10, 18.5)))  // straight ahead but for the tremble
        #expect(peak(HecateMIDIMap.resonance, 25.5, 27.5) >= 110)
        #expect(peak(HecateMIDIMap.brightness, 29, 31) >= 100)
        let expression = Self.controller(HecateMIDIMap.expression, in: events)
        #expect(expression.contains { $0.value == 0 && (frameOf(31)...frameOf(32.5)).contains($0.frame) })
        #expect(expression.contains { $0.value == 127 && $0.frame > frameOf(32.5) })
        // The reverb mix of the pack (cathedral 0.38 → 48) and the tremolo (off: 0) never change: sent at the
        // start and again when the face is found after the loss.
        let reverb = Self.controller(HecateMIDIMap.reverb, in: events)
        #expect(reverb.map(\.value) == [48, 48] && reverb[0].frame == 0 && reverb[1].frame >= frameOf(32.5), "\(reverb)")
        #expect(Self.controller(HecateMIDIMap.tremoloDepth, in: events).map(\.value) == [0, 0])
    }

    @Test func theOfflineRenderGivesTheSameMIDIInAnyBlockSize() throws {
        let recording = try RecordingReader.parse(Array(try Data(contentsOf: HecatePerformanceTests.performanceFile)))
        func render(_ block: Int) throws -> [Event] {
            var events: [Event] = []
            var options = HecateRecordingRender.options(sampleRate: 48_000, format: .float32)
            options.blockSize = block
            _ = try HecateRecordingRender.render(recording, engine: DroneSynthEngine(), initial: [.midiOut(channel: 1)], chords: [],
                                                 options: options, to: WAVMemorySink(), midi: { events.append($0) })
            return events
        }
        let a = try render(256), b = try render(64)
        // The tail stops at a block boundary, so only the final All Notes Off's frame may differ.
        #expect(a.dropLast() == b.dropLast() && a.count > 100)
    }

    // MARK: The engine's rules

    @Test func arpeggiatedStepsAreTheirOwnNotes() {
        // 120 BPM in eighths: a step every 0.25 s, the gate open for 0.2 s; root, third and fifth take turns.
        let events = Self.renderMIDI(seconds: 2.1, commands: [
            (0, .midiOut(channel: 1)), (0, .bpm(120)), (0, .arpeggiatorDivision(.eighth)), (0, .arpeggiator(true)),
            (0, Self.face(third: 0.8, fifth: 0.6)),
        ])
        let (notes, problems) = Self.notes(events)
        #expect(problems.isEmpty, "\(problems)")
        // The 8-step pattern in rising order (step k plays the (k mod 3)-th tone; step 8 starts over);
        // the launch fade-in (450 ms) may hide the first step.
        let sequence = notes.map(\.note)
        let pattern = [48, 52, 55, 48, 52, 55, 48, 52, 48]
        #expect(sequence.count >= 8 && (pattern.starts(with: sequence) || pattern.dropFirst().starts(with: sequence)), "\(sequence)")
        for n in notes.dropFirst().dropLast() {
            let length = Double(n.off! - n.on) / 48_000
            #expect((0.18...0.22).contains(length), "note \(n.note) lasts \(length) s")
        }
        for (a, b) in zip(notes, notes.dropFirst()) { #expect(a.off! <= b.on) }
        // Velocity from the face's level, 127·√level: root 1 → 127, third 0.8 → 114, fifth 0.6 → 98.
        #expect(notes.allSatisfy { [48: 127, 52: 114, 55: 98][$0.note] == $0.velocity }, "\(notes.map { ($0.note, $0.velocity) })")
    }

    @Test func aChordChangeMovesTheSoundingPitchesAtOnce() {
        let events = Self.renderMIDI(seconds: 2, commands: [
            (0, .midiOut(channel: 1)), (0, Self.face(fifth: 0.7, bass: 0.5)), (1, .chord(.four)), (1.5, .chord(.four)),
        ])
        let (notes, problems) = Self.notes(events)
        #expect(problems.isEmpty, "\(problems)")
        let change = Int64(48_000)
        // I: C3, G3, bass C2 → IV: F3, C4, bass F2; each old note ends and the new one starts within a control tick.
        let iv = DroneVoicing(key: .c, degree: .four)
        #expect(Set(notes.filter { $0.on < change }.map(\.note)) == [48, 55, 36])
        #expect(Set(notes.filter { $0.on >= change }.map(\.note)) == [iv.tones[0], iv.tones[2], iv.bass])
        for n in notes where n.on < change { #expect((change..<change + 16).contains(n.off!)) }
        for n in notes where n.on >= change { #expect(n.on < change + 16 && n.off == nil) }
        // The same chord again changes nothing.
        #expect(!events.contains { $0.frame >= change + 16 && $0.message.status & 0xE0 == 0x80 })
    }

    @Test func aLevelAtTheThresholdDoesNotChatter() {
        // The fifth's level swings 0.07 ↔ 0.13 every 50 ms (across the on level, inside the off level), then goes.
        var commands: [(Double, DroneSynthEngine.Command)] = [(0, .midiOut(channel: 1))]
        for i in 0..<40 { commands.append((0.5 + Double(i) * 0.05, Self.face(fifth: i % 2 == 0 ? 0.13 : 0.07))) }
        commands.append((2.5, Self.face(fifth: 0)))
        let events = Self.renderMIDI(seconds: 3, commands: commands)
        let (notes, problems) = Self.notes(events)
        #expect(problems.isEmpty, "\(problems)")
        let fifths = notes.filter { $0.note == 55 }
        #expect(fifths.count == 1, "\(fifths)")
        #expect(fifths.first.map { Double($0.off ?? 0) / 48_000 > 2.5 } == true)
    }

    @Test func turningMIDIOutOffEndsEveryNoteAndStops() {
        let events = Self.renderMIDI(seconds: 2, commands: [
            (0, .midiOut(channel: 16)), (0, Self.face(third: 1, fifth: 1, seventh: 1, ninth: 1, bass: 1, cutoff: 0.6)),
            (1, .midiOut(channel: nil)), (1.5, Self.face(cutoff: 1)),
        ])
        let (notes, problems) = Self.notes(events, channel: 15)
        #expect(problems.isEmpty, "\(problems)")
        #expect(notes.count == 6 && notes.allSatisfy { $0.off == 48_000 })
        #expect(events.last?.message == MIDIShortMessage(status: 0xBF, data1: 123, data2: 0) && events.last?.frame == 48_000)
        // Channel 16 from the start; the cutoff went out before the notes and rose to 0.6 → 76; nothing after the end.
        #expect(Self.controller(HecateMIDIMap.cutoff, in: events).last?.value == 76)
        #expect(events.firstIndex { $0.message.data1 == HecateMIDIMap.cutoff } ?? 99 < events.firstIndex { $0.message.status == 0x9F } ?? 0)
    }

    @Test func aFullOutboxDropsCountsAndCatchesUp() throws {
        // Draining only every 20 s: the outbox (1024 messages) overflows on the performance's controllers;
        // what was refused is posted again once there is room, so every note still ends.
        let recording = try RecordingReader.parse(Array(try Data(contentsOf: HecatePerformanceTests.performanceFile)))
        let engine = DroneSynthEngine()
        var commands: [(Double, DroneSynthEngine.Command)] = [(0, .midiOut(channel: 1))]
        var performance = HecatePerformance()
        for c in performance.schedule(recording, sampleRate: 48_000) { commands.append((Double(c.frame) / 48_000, c.command)) }
        commands.append((41, .midiOut(channel: nil)))
        let events = Self.renderMIDI(engine, seconds: 41.5, commands: commands, drainEvery: 3750)
        #expect(engine.midiOutbox.droppedCount > 0)
        let (notes, problems) = Self.notes(events)
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        #expect(notes.count >= 7 && notes.allSatisfy { $0.off != nil })
    }

    @Test func playingMIDIAllocatesNothing() throws {
        try #require(AllocationCounter.isAvailable)
        let engine = DroneSynthEngine()
        let host = EngineHost(engine: engine, spec: ProcessSpec(sampleRate: 48_000, maximumBlockSize: 256, channelCount: 2))
        var l = [Float](repeating: 0, count: 256), r = l
        l.withUnsafeMutableBufferPointer { lp in r.withUnsafeMutableBufferPointer { rp in host.process(left: lp, right: rp) } }
        let commands: [DroneSynthEngine.Command] = [
            .midiOut(channel: 2), Self.face(third: 0.9, fifth: 0.8, bass: 1, cutoff: 0.7), .chord(.five), .arpeggiator(true),
            .key(.a), Self.face(third: 0.2, cutoff: 0.1), .faceLost, .faceFound, .midiOut(channel: 9), .midiOut(channel: nil),
        ]
        var sent = 0
        let count = l.withUnsafeMutableBufferPointer { lp in
            r.withUnsafeMutableBufferPointer { rp in
                AllocationCounter.allocations {
                    for c in commands {
                        engine.handle(c)
                        for _ in 0..<40 {
                            engine.render(left: lp, right: rp)
                            engine.midiOutbox.drain(lastFrames: 256) { m, offset in sent += Int(m.data1) + offset }
                        }
                    }
                    // Undrained: the outbox fills and refuses.
                    engine.handle(.midiOut(channel: 1))
                    for _ in 0..<2000 { engine.render(left: lp, right: rp) }
                }
            }
        }
        #expect(count == 0)
        #expect(sent > 0)
    }

    // MARK: The outbox

    @Test func theOutboxKeepsOrderPlacesFramesAndCountsWhatDoesNotFit() {
        let outbox = EngineMIDIOutbox(capacity: 3)
        let a = MIDIShortMessage(status: 0x90, data1: 60, data2: 100)!, b = MIDIShortMessage(status: 0xB0, data1: 74, data2: 1)!
        outbox.advance(to: 1000)
        #expect(outbox.post(a, atFrame: 1100) && outbox.post(b, atFrame: 1050) && outbox.post(a, atFrame: 1300))
        #expect(!outbox.post(b, atFrame: 1301) && outbox.droppedCount == 1 && outbox.postedCount == 3)
        outbox.advance(to: 1256)
        var placed: [(MIDIShortMessage, Int)] = []
        outbox.drain(lastFrames: 256) { placed.append(($0, $1)) }
        // 1100 → 100; 1050 would be 50 but never before an earlier message; 1300 lies past the block: its last frame.
        #expect(placed.map(\.1) == [100, 100, 255] && placed.map(\.0) == [a, b, a])
        var rest: [EngineMIDIOutbox.Event] = []
        outbox.drain { rest.append($0) }
        #expect(rest.isEmpty && outbox.post(b, atFrame: 2000))
    }
}
