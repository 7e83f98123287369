import Ariel
import Foundation
import HiSynth
import Testing
import Touchstone

/// The song player: note times on their exact samples through a multi-tempo file, tempo scale, loop,
/// seek, pause and stop, the piano roll and the built-in songs.
@Suite struct HiSynthSongPlayerTests {
    static let fs = 44_100.0
    static let ppq = 480
    /// Note-on ticks of the test file and its tempo changes: 120 BPM, 90 BPM from tick 960 (1 s), 200 BPM
    /// from 2400 (3 s).
    static let onTicks = [0, 480, 960, 1_440, 2_400, 2_640, 3_000]
    static let noteLength = 200

    /// Seconds at `tick` for the tempo map above, computed here segment by segment from the tempos the
    /// file stores (whole microseconds per quarter: 500 000, 666 667, 300 000).
    static func seconds(_ tick: Int) -> Double {
        let a = min(tick, 960), b = min(max(tick - 960, 0), 1_440), c = max(tick - 2_400, 0)
        return (Double(a) * 500_000 + Double(b) * 666_667 + Double(c) * 300_000) / 480 / 1_000_000
    }

    static var multiTempoFile: MIDIFile {
        let conductor = MIDIFileTrack(events: [
            .meta(.tempo(bpm: 120)), .meta(.tempo(bpm: 90), delta: 960), .meta(.tempo(bpm: 200), delta: 1_440),
        ])
        var events: [MIDIFileEvent] = []
        var last = 0
        for (i, t) in onTicks.enumerated() {
            let note = MIDIUInt7(60 + i)!
            events.append(.message(.noteOn(channel: 0, note: note, velocity: 100), delta: t - last))
            events.append(.message(.noteOff(channel: 0, note: note, velocity: 0), delta: noteLength))
            last = t + noteLength
        }
        return MIDIFile(format: .multiTrack, division: .ticksPerQuarterNote(ppq), tracks: [conductor, MIDIFileTrack(events: events)])
    }

    /// Plays `player` through `EngineHost` for `seconds` in 256-frame blocks, sending `commands` before
    /// the block that starts at (or after) their frame. Returns the left channel.
    static func play(_ player: HiSynthSongPlayer, seconds: Double, commands: [(frame: Int, HiSynthSongPlayer.Command)] = []) -> [Float] {
        let host = EngineHost(engine: player, spec: ProcessSpec(sampleRate: fs, maximumBlockSize: 256, channelCount: 2))
        let total = Int(seconds * fs)
        var left = [Float](repeating: 0, count: total), right = left
        var next = 0
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                var position = 0
                while position < total {
                    while next < commands.count && commands[next].frame <= position {
                        host.send(commands[next].1)
                        next += 1
                    }
                    let end = min(total, position + 256)
                    host.process(left: .init(rebasing: l[position..<end]), right: .init(rebasing: r[position..<end]))
                    position = end
                }
            }
        }
        return left
    }

    static func plainEngine() -> HiSynthEngine {
        var s = HiSynthSettings()
        s.layer2.level = 0
        s.envelope = .init(attack: 0, decay: 0.5, sustain: 1, release: 0.05)
        return HiSynthEngine(settings: s)
    }

    static func onFrames(_ engine: HiSynthEngine) -> [Int64] { engine.noteLog.events().filter(\.isOn).map(\.frame) }

    @Test func notesLandOnTheirSamplesThroughTheTempoMap() throws {
        let engine = Self.plainEngine()
        let song = HiSynthSong(file: Self.multiTempoFile, name: "Test - Tempo Map")
        let out = Self.play(HiSynthSongPlayer(engine: engine, song: song, playing: true), seconds: 3.7)
        let expected = Self.onTicks.map { Int64((Self.seconds($0) * Self.fs).rounded()) }
        #expect(Self.onFrames(engine) == expected)
        let offs = engine.noteLog.events().filter { !$0.isOn }.map(\.frame)
        #expect(offs == Self.onTicks.map { Int64((Self.seconds($0 + Self.noteLength) * Self.fs).rounded()) })
        // From the audio: the first sound is one sample after the first note's frame (the sine starts at
        // 0), delayed by the limiter's look-ahead.
        let first = try #require(out.firstIndex { $0 != 0 })
        #expect(first == Int(expected[0]) + 1 + engine.latencySamples)
        // The song's model agrees with the same map.
        for (n, t) in zip(song.notes, Self.onTicks) { #expect(abs(n.start - Self.seconds(t)) < 1e-12) }
        #expect(abs(song.duration - Self.seconds(3_000 + Self.noteLength)) < 1e-12)
    }

    @Test func tempoScaleDividesTheTimes() {
        let engine = Self.plainEngine()
        let player = HiSynthSongPlayer(engine: engine, song: HiSynthSong(file: Self.multiTempoFile, name: "x"), playing: true)
        _ = Self.play(player, seconds: 1.85, commands: [(0, .tempoScale(2))])
        let expected = Self.onTicks.map { Self.seconds($0) * Self.fs / 2 }
        let measured = Self.onFrames(engine)
        #expect(measured.count == expected.count)
        for (m, e) in zip(measured, expected) { #expect(abs(Double(m) - e) <= 1, "\(m) vs \(e)") }
    }

    @Test func loopingStartsAgainAtTheEnd() {
        let engine = Self.plainEngine()
        let song = HiSynthSong(file: Self.multiTempoFile, name: "x")
        let player = HiSynthSongPlayer(engine: engine, song: song, playing: true, looping: true)
        _ = Self.play(player, seconds: 4.8)
        // The sequencer loops over 0 ..< the frame after the last event (the last note-off ends the song).
        let end = Int64((song.duration * Self.fs).rounded()) + 1
        let first = Self.onTicks.map { Int64((Self.seconds($0) * Self.fs).rounded()) }
        let frames = Self.onFrames(engine)
        #expect(frames.count > first.count)
        #expect(Array(frames.prefix(first.count)) == first)
        #expect(Array(frames.dropFirst(first.count).prefix(3)) == first.prefix(3).map { $0 + end })
        #expect(player.isPlaying)
    }

    @Test func seekJumpsToTheSongTime() {
        let engine = Self.plainEngine()
        let player = HiSynthSongPlayer(engine: engine, song: HiSynthSong(file: Self.multiTempoFile, name: "x"), playing: true)
        // At frame 2560 (0.058 s) seek to 1.0 s: the notes from 1.6667 s (tick 1440) on follow, shifted.
        let seekFrame = 2_560
        _ = Self.play(player, seconds: 2.8, commands: [(seekFrame, .seek(seconds: 1.0))])
        let frames = Self.onFrames(engine)
        let after = Self.onTicks.filter { Self.seconds($0) >= 1.0 }.map {
            Int64(seekFrame) + Int64((Self.seconds($0) * Self.fs).rounded()) - Int64(Self.fs)
        }
        #expect(frames == [0] + after)
    }

    @Test func pauseReleasesAndHoldsThePositionStopRewinds() {
        let engine = Self.plainEngine()
        let player = HiSynthSongPlayer(engine: engine, song: HiSynthSong(file: Self.multiTempoFile, name: "x"), playing: true)
        let pauseFrame = 10_240   // 0.232 s, while note 60 (0…0.104 s) is over and before 0.25 s
        _ = Self.play(player, seconds: 1, commands: [(pauseFrame, .pause)])
        #expect(!player.isPlaying)
        #expect(abs(player.position - Double(pauseFrame) / Self.fs) < 1e-9)
        #expect(Self.onFrames(engine) == [0])
        _ = Self.play(player, seconds: 0.1, commands: [(0, .stop)])
        #expect(player.position == 0 && !player.isPlaying)
        #expect(engine.snapshot().heldNotesLow == 0 && engine.snapshot().heldNotesHigh == 0)
    }

    @Test func pianoRollPairsTheLoggedEvents() {
        let events = [HiSynthNoteEvent(note: 60, isOn: true, frame: 0), HiSynthNoteEvent(note: 64, isOn: true, frame: 44_100),
                      HiSynthNoteEvent(note: 60, isOn: false, frame: 88_200), HiSynthNoteEvent(note: 20, isOn: true, frame: 1_000)]
        let roll = HiSynthPianoRoll(events: events, now: 132_300, sampleRate: 44_100)
        #expect(roll.bars.contains(.init(note: 60, start: 3, end: 1, isHeld: false)))
        #expect(roll.bars.contains(.init(note: 64, start: 2, end: 0, isHeld: true)))
        #expect(HiSynthPianoRoll.x(secondsAgo: 1, width: 220) == 165)
        #expect(HiSynthPianoRoll.y(note: 69, height: 72) == 36)
        let song = HiSynthSong(file: Self.multiTempoFile, name: "x")
        let window = HiSynthPianoRoll.songWindow(song, position: 1.0)
        #expect(window.map(\.note) == [60, 61, 62])
    }

    @Test func builtInSongsAreValidFilesWithTheirTempos() throws {
        for entry in HiSynthSongBook.all {
            let bytes = try entry.file.encoded()
            let song = try HiSynthSong(bytes: bytes, name: entry.name)
            #expect(!song.notes.isEmpty && song.duration > 10 && song.duration < 120, "\(entry.name)")
            #expect(song.notes.allSatisfy { $0.end > $0.start })
            #expect(song.composer != nil)
        }
        let ode = HiSynthSongBook.odeToJoy.song
        #expect(ode.title == "Ode to Joy" && ode.composer == "Beethoven")
        #expect(ode.file.tempoMap.segmentTempos.count == 3)
        #expect(HiSynthSongBook.all.map(\.fileName).contains("beethoven-ode-to-joy.mid"))
    }

    @Test func aSongLongerThanAnHourIsRefused() throws {
        var file = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(1), tracks: [])
        file.tracks = [MIDIFileTrack(events: [.meta(.tempo(microsecondsPerQuarterNote: 8_000_000)),
                                              .message(.noteOn(channel: 0, note: 60, velocity: 90), delta: 1_000)])]
        #expect(throws: HiSynthSongError.self) { try HiSynthSong(bytes: try file.encoded(), name: "long") }
        #expect(throws: HiSynthSongError.self) { try HiSynthSong(bytes: [0x4D, 0x54, 0x68], name: "short") }
    }
}

/// The display taps: the oscilloscope's points and the note log a piano roll reads.
@Suite struct HiSynthDisplayTapTests {
    @Test func oscilloscopeDrawsTheLastOutputSamples() {
        var s = HiSynthRig.plain(level: 0.5)
        s.effects.reverbOn = false
        let out = HiSynthRig.render(s, seconds: 0.5, [(0, .noteOn(69))])
        let points = HiSynthOscilloscope.points(from: out.engine.scope, width: 180, height: 45)
        #expect(points.count == 103)                          // every 10th of 1024 samples
        #expect(points.first!.x == 0 && points.last!.x == 180)
        // y = s·h/2 + h/2 of every 10th of the last 1024 samples written.
        let expectedY = Double(out.left[out.left.count - 1024 + 1020]) * 22.5 + 22.5
        #expect(abs(points.last!.y - expectedY) < 1e-4)
        #expect(points.allSatisfy { $0.y >= 0 && $0.y <= 45 })
        let latest = out.engine.scope.latest(1024)
        #expect(latest == Array(out.left.suffix(1024)))
    }

    @Test func noteLogKeepsTheLastSixtyFourEventsInOrder() {
        let log = HiSynthNoteLog(capacity: 64)
        var commands: [(Double, HiSynthEngine.Command)] = []
        for k in 0..<50 {
            commands.append((0.01 * Double(k), .noteOn(UInt8(40 + k))))
            commands.append((0.01 * Double(k) + 0.005, .noteOff(UInt8(40 + k))))
        }
        let out = HiSynthRig.render(HiSynthSettings(), seconds: 0.6, commands)
        let events = out.engine.noteLog.events()
        #expect(events.count == 64)
        #expect(events.last == HiSynthNoteEvent(note: 89, isOn: false, frame: Int64((0.495 * 44_100).rounded())))
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.frame <= $1.frame })
        #expect(log.events().isEmpty)
    }
}
