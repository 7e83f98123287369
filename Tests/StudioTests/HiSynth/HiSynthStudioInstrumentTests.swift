import Ariel
import Foundation
import HiSynth
import InstrumentSettings
import Studio
import Testing

/// The rack's controller: every control reaches the engine within one block, with the documented
/// conversions; refused values change nothing; presets load, save, import and export; keyboard notes
/// are held per page and end when the page goes; MIDI from JACK plays; the song player runs.
@Suite("HiSynth studio instrument")
struct HiSynthStudioInstrumentTests {
    typealias Rig = HiSynthStudioRig

    @Test("each control reaches the engine's settings after one audio block, converted as documented")
    func controlsReachTheEngine() throws {
        let synth = Rig.instrument(preset: HiSynthPreset.factory.last!)   // Init
        Rig.render(synth, blocks: 1)
        // (path, value, what the engine must hold: expected values from the spec's units, not the code)
        let cases: [(String, StudioValue, (HiSynthSettings) -> Bool)] = [
            ("hisynth.osc1.waveform", "pulse", { $0.layer1.waveform == .pulse }),
            ("hisynth.osc2.waveform", "rsaw", { $0.layer2.waveform == .rsaw }),
            ("hisynth.osc1.level", 0.25, { $0.layer1.level == 0.25 }),
            ("hisynth.osc2.pitch", -7, { $0.layer2.pitch == -7 }),
            ("hisynth.env.attack", 0.5, { $0.envelope.attack == 0.5 }),
            ("hisynth.env.decay", 1.25, { $0.envelope.decay == 1.25 }),
            ("hisynth.env.sustain", 0.5, { $0.envelope.sustain == 0.5 }),
            ("hisynth.env.release", 4, { $0.envelope.release == 4 }),
            ("hisynth.lp.cutoff", 1000, { $0.lowPass.cutoff == 1000 }),
            ("hisynth.lp.resonance", 6, { $0.lowPass.resonance == 6 }),
            ("hisynth.hp.cutoff", 250, { $0.highPass.cutoff == 250 }),
            ("hisynth.hp.resonance", -3, { $0.highPass.resonance == -3 }),
            ("hisynth.lfo2.waveform", "square", { $0.lfo2.waveform == .square }),
            ("hisynth.lfo2.depth", 0.5, { $0.lfo2.depth == 0.5 }),
            ("hisynth.lfo3.speed", 8, { $0.lfo3.speed == 8 }),
            ("hisynth.lfo1.phase", 0.25, { $0.lfo1.phase == 0.25 }),
            ("hisynth.lfo1.pitch", true, { $0.lfo1.pitch }),
            ("hisynth.lfo2.amplitude", true, { $0.lfo2.amplitude }),
            ("hisynth.lfo3.filterLow", true, { $0.lfo3.filterLow }),
            ("hisynth.lfo3.filterHigh", true, { $0.lfo3.filterHigh }),
            ("hisynth.reverb.on", true, { $0.effects.reverbOn }),
            ("hisynth.reverb.type", "hall", { $0.effects.reverbVariant == .largeHall }),   // hall, size 2
            ("hisynth.reverb.size", 3, { $0.effects.reverbVariant == .largeHall2 }),
            ("hisynth.reverb.mix", 0.25, { $0.effects.reverbMix == 0.25 }),
            ("hisynth.delay.on", true, { $0.effects.delayOn }),
            ("hisynth.delay.feedback", 25, { $0.effects.delayFeedback == 0.25 }),   // percent → fraction
            ("hisynth.delay.time", 0.75, { $0.effects.delayTime == 0.75 }),
            ("hisynth.delay.mix", 75, { $0.effects.delayMix == 0.75 }),
            ("hisynth.drive.on", true, { $0.effects.driveOn }),
            ("hisynth.drive.gain", -20, { $0.effects.driveGain == -20 }),
            ("hisynth.drive.mix", 40, { $0.effects.driveMix == 0.4 }),
            ("hisynth.decimator.on", true, { $0.effects.decimatorOn }),
            ("hisynth.decimator.rate", 12.5, { $0.effects.decimatorRate == 12.5 }),
            ("hisynth.decimator.mix", 100, { $0.effects.decimatorMix == 1 }),
        ]
        for (path, value, holds) in cases {
            let changes = try synth.apply(set: path, value: value)
            #expect(changes[String(path.dropFirst(8))] == value, "\(path) answered \(changes)")
            #expect(changes["presetString"] != nil, "\(path): the export string follows")
            Rig.render(synth, blocks: 1)
            #expect(holds(Rig.engineSettings(synth)), "\(path) = \(value) did not reach the engine in one block")
        }
        // The matrix row's OFF clears all four targets.
        #expect(try synth.apply(action: "hisynth.lfo3.off", value: .null)["lfo3.filterLow"] == false)
        Rig.render(synth, blocks: 1)
        let lfo3 = Rig.engineSettings(synth).lfo3
        #expect(!lfo3.pitch && !lfo3.amplitude && !lfo3.filterLow && !lfo3.filterHigh)
        // Values are kept as the preset string stores them (binary16): 1234.5 Hz is 1234 Hz.
        _ = try synth.apply(set: "hisynth.lp.cutoff", value: 1234.5)
        #expect(synth.stateJSON()["lp.cutoff"] == 1234)
    }

    @Test("refused values answer a typed error and change nothing")
    func validation() throws {
        let synth = Rig.instrument()
        let before = synth.stateJSON()
        let refused: [(String, StudioValue, String)] = [
            ("hisynth.osc1.level", 1.01, "out_of_range"), ("hisynth.osc1.level", "loud", "bad_value"),
            ("hisynth.osc1.level", .number(.nan), "bad_value"), ("hisynth.osc2.pitch", 12.5, "out_of_range"),
            ("hisynth.osc2.pitch", 3.5, "bad_value"), ("hisynth.osc1.waveform", "noise", "out_of_range"),
            ("hisynth.osc1.waveform", 2, "bad_value"), ("hisynth.env.decay", 0.01, "out_of_range"),
            ("hisynth.env.release", 10.5, "out_of_range"), ("hisynth.lp.cutoff", 5, "out_of_range"),
            ("hisynth.lp.cutoff", 30_000, "out_of_range"), ("hisynth.hp.resonance", 41, "out_of_range"),
            ("hisynth.lfo1.speed", 0.2, "out_of_range"), ("hisynth.lfo1.pitch", 1, "bad_value"),
            ("hisynth.reverb.size", 2.5, "bad_value"), ("hisynth.reverb.type", "cathedral", "out_of_range"),
            ("hisynth.delay.feedback", -1, "out_of_range"), ("hisynth.drive.gain", 21, "out_of_range"),
            ("hisynth.decimator.rate", 31, "out_of_range"), ("hisynth.volume", 1, "unknown_control"),
            ("hisynth.", 1, "unknown_control"), ("hecate.key", "C", "unknown_control"),
            ("hisynth.octave", 8, "out_of_range"), ("hisynth.octave", 0, "out_of_range"), ("hisynth.octave", 4.5, "bad_value"),
            ("hisynth.player.song", 99, "out_of_range"), ("hisynth.player.song", "Stairway", "out_of_range"),
            // A whole number past Int's range: refused, never converted (the conversion trapped the studio).
            ("hisynth.player.song", 1e300, "out_of_range"), ("hisynth.player.song", -1e300, "out_of_range"),
            ("hisynth.player.tempo", 5, "out_of_range"), ("hisynth.player.loop", "yes", "bad_value"),
            ("hisynth.preset.name", "", "out_of_range"), ("hisynth.preset.name", .string(String(repeating: "x", count: 25)), "out_of_range"),
            ("hisynth.preset.name", "bell\u{07}", "bad_value"),
        ]
        for (path, value, code) in refused {
            do { _ = try synth.apply(set: path, value: value); Issue.record("\(path) = \(value) accepted") } catch {
                #expect(error.code == code, "\(path) = \(value): \(error)")
            }
        }
        let refusedActions: [(String, StudioValue, String)] = [
            ("hisynth.note.on", 128, "out_of_range"), ("hisynth.note.on", 60.5, "bad_value"), ("hisynth.note.on", "C4", "bad_value"),
            ("hisynth.note.off", -1, "out_of_range"), ("hisynth.preset.load", "No Such Preset", "out_of_range"),
            ("hisynth.preset.load", "../../etc/passwd", "out_of_range"),
            ("hisynth.preset.save", .string(String(repeating: "y", count: 25)), "out_of_range"), ("hisynth.preset.save", "Init", "bad_value"),
            ("hisynth.preset.import", "not a preset", "bad_preset"), ("hisynth.preset.import", "", "bad_preset"),
            ("hisynth.preset.import", "SW5pdA==:Y2BgsAJCIAAA", "bad_preset"),
            ("hisynth.preset.import", .string(String(repeating: "A", count: 5000)), "out_of_range"),
            ("hisynth.preset.import", 3, "bad_value"), ("hisynth.player.play", "now", "bad_value"), ("hisynth.explode", .null, "unknown_control"),
        ]
        for (path, value, code) in refusedActions {
            do { _ = try synth.apply(action: path, value: value, client: "c1"); Issue.record("\(path) accepted") } catch {
                #expect(error.code == code, "\(path): \(error)")
            }
        }
        #expect(synth.stateJSON() == before)
    }

    @Test("importing each factory string selects it: state and engine equal the decoded JSON, except the documented clamps")
    func importFactoryStrings() throws {
        let vectors = try Rig.factoryVectors()
        #expect(vectors.count == 15)
        let synth = Rig.instrument(preset: HiSynthPreset.factory.last!)
        for (string, decoded) in vectors {
            let name = decoded["name"] as! String
            let changes = try synth.apply(action: "hisynth.preset.import", value: .string(string + " "), client: "c1")   // trailing space trimmed
            #expect(synth.stateJSON()["preset"] == .string(name))
            #expect(changes["userPresets"] == nil, "\(name): a factory name is selected, not added")
            #expect(synth.stateJSON()["presetString"] == .string(string), "\(name): exports the same string")
            Rig.render(synth, blocks: 1)
            let s = Rig.engineSettings(synth)
            let state = synth.stateJSON()
            func num(_ o: Any?, _ key: String) -> Double { ((o as! [String: Any])[key] as! NSNumber).doubleValue }
            func flag(_ o: Any?, _ key: String) -> Bool { (o as! [String: Any])[key] as! Bool }
            let oscs = decoded["oscillators"] as! [[String: Any]]
            for (i, o) in oscs.enumerated() {
                #expect(state["osc\(i + 1).waveform"] == .string(o["waveform"] as! String))
                #expect(Double(s[layer: i].level) == num(o, "level") && Double(s[layer: i].pitch) == num(o, "pitch"), "\(name) osc\(i + 1)")
                #expect(s[layer: i].waveform.name == o["waveform"] as! String)
            }
            let env = decoded["envelope"]
            // Documented clamps: decay and release have a 0.05 s floor (binary16 stores 0.04998779…).
            #expect(s.envelope.attack == num(env, "attack") && s.envelope.sustain == num(env, "sustain"), "\(name) env")
            #expect(abs(s.envelope.decay - max(num(env, "decay"), 0.05)) < 1e-7 && abs(s.envelope.release - max(num(env, "release"), 0.05)) < 1e-7,
                    "\(name) env")
            let filters = decoded["filters"] as! [String: Any]
            // Cutoffs keep a base below 10 Hz (0 = no LFO effect): the filter clamps what it runs at.
            #expect(Double(s.lowPass.cutoff) == num(filters["lowPass"], "cutoff") && Double(s.lowPass.resonance) == num(filters["lowPass"], "resonance"))
            #expect(Double(s.highPass.cutoff) == num(filters["highPass"], "cutoff") && Double(s.highPass.resonance) == num(filters["highPass"], "resonance"))
            for (i, l) in (decoded["lfos"] as! [[String: Any]]).enumerated() {
                let e = s[lfo: i]
                #expect(e.waveform.name == l["waveform"] as! String && Double(e.depth) == num(l, "depth") && e.speed == num(l, "speed")
                        && e.phase == num(l, "phase"), "\(name) lfo\(i + 1)")
                #expect(e.pitch == flag(l, "pitch") && e.amplitude == flag(l, "amplitude") && e.filterLow == flag(l, "filterLow")
                        && e.filterHigh == flag(l, "filterHigh"), "\(name) lfo\(i + 1) matrix")
                #expect(state["lfo\(i + 1).depth"] == .number(num(l, "depth")))
            }
            let fx = decoded["effects"] as! [String: Any]
            let reverb = fx["reverb"] as! [String: Any], delay = fx["delay"], drive = fx["drive"], decimator = fx["decimator"]
            #expect(s.effects.reverbOn == flag(reverb, "on") && Double(s.effects.reverbMix) == num(reverb, "mix"), "\(name) reverb")
            // Spec §1: room sizes 1/2/3 → small/medium/large room; hall 1/2/3 → medium hall, large hall, large hall 2.
            let rooms: [HiSynthReverbVariant] = reverb["type"] as! String == "hall" ? [.mediumHall, .largeHall, .largeHall2] : [.smallRoom, .mediumRoom, .largeRoom]
            #expect(s.effects.reverbVariant == rooms[Int(num(reverb, "size").rounded()) - 1], "\(name) reverb variant")
            // Percentages become fractions.
            #expect(s.effects.delayOn == flag(delay, "on") && Double(s.effects.delayTime) == num(delay, "time"))
            #expect(abs(Double(s.effects.delayFeedback) - num(delay, "feedback") / 100) < 1e-6 && abs(Double(s.effects.delayMix) - num(delay, "mix") / 100) < 1e-6)
            #expect(s.effects.driveOn == flag(drive, "on") && Double(s.effects.driveGain) == num(drive, "gain")
                    && abs(Double(s.effects.driveMix) - num(drive, "mix") / 100) < 1e-6, "\(name) drive")
            #expect(s.effects.decimatorOn == flag(decimator, "on") && Double(s.effects.decimatorRate) == num(decimator, "rate")
                    && abs(Double(s.effects.decimatorMix) - num(decimator, "mix") / 100) < 1e-6, "\(name) decimator")
        }
    }

    @Test("presets: load by name, save under a new name (1…24 characters) to the user list, import a new one, rename")
    func presets() throws {
        let synth = Rig.instrument()
        #expect(try synth.apply(action: "hisynth.preset.load", value: "Dream Pad", client: "c1")["preset"] == "Dream Pad")
        _ = try synth.apply(set: "hisynth.lp.cutoff", value: 800)
        let saved = try synth.apply(action: "hisynth.preset.save", value: "  My Dream  ", client: "c1")
        #expect(saved["preset"] == "My Dream")
        #expect(saved["userPresets"] == ["My Dream"])
        _ = try synth.apply(action: "hisynth.preset.load", value: "Init", client: "c1")
        let back = try synth.apply(action: "hisynth.preset.load", value: "My Dream", client: "c1")
        #expect(back["lp.cutoff"] == 800 && back["preset"] == "My Dream")
        // A new name through an imported string joins the list (kept in memory, as the original does).
        var renamed = HiSynthPreset.factory[3]
        renamed.name = "Tunnel Lead"
        let imported = try synth.apply(action: "hisynth.preset.import", value: .string(try renamed.encoded()), client: "c1")
        #expect(imported["preset"] == "Tunnel Lead" && imported["userPresets"] == ["My Dream", "Tunnel Lead"])
        // Renaming changes the export string's name.
        let name = try synth.apply(set: "hisynth.preset.name", value: "Subway 2")
        let string = try #require(name["presetString"]?.string)
        #expect(try HiSynthPreset(string: string).name == "Subway 2")
        #expect(Self.envelopeLabels() == ["A 0ms D 500ms S 0.0dB R 500ms", "A 0ms D 50ms S -24.4dB R 50ms"])
    }

    static func envelopeLabels() -> [String] {
        [HiSynthStudioInstrument.envelopeLabel(HiSynthPreset.factory[0].envelope),
         HiSynthStudioInstrument.envelopeLabel(HiSynthPreset.factory.first { $0.name == "Spring Pluck" }!.envelope)]
    }

    @Test("keyboard notes are held per page: one voice per note, a lost page or note.release ends its notes, silence ends all")
    func notesPerClient() throws {
        let synth = Rig.instrument(preset: HiSynthPreset.factory.last!)
        func held() -> [Int] {
            Rig.render(synth, blocks: 8)
            let s = synth.host.latestSnapshot().snapshot!.player.synth
            return (0..<128).filter { s.isHeld(UInt8($0)) }
        }
        _ = try synth.apply(action: "hisynth.note.on", value: 60, client: "a")
        _ = try synth.apply(action: "hisynth.note.on", value: 64, client: "a")
        _ = try synth.apply(action: "hisynth.note.on", value: 60, client: "b")
        _ = try synth.apply(action: "hisynth.note.on", value: 67, client: "b")
        #expect(held() == [60, 64, 67])
        #expect(synth.host.engine.engine.snapshot().noteOnCount == 3, "60 struck once for two pages")
        _ = synth.clientLeft("a", at: 1)
        #expect(held() == [60, 67], "b still holds 60")
        _ = try synth.apply(action: "hisynth.note.off", value: 67, client: "b")
        #expect(held() == [60])
        _ = try synth.apply(action: "hisynth.note.release", value: .null, client: "b")
        #expect(held() == [])
        _ = try synth.apply(action: "hisynth.note.on", value: 48, client: "c")
        #expect(held() == [48])
        synth.silence(at: 2)
        #expect(held() == [])
        // Through the session: a page's socket lost ends its notes.
        let session = StudioSession(instruments: [synth])
        let outbox: StudioSession.Outbox = { _ in }
        let connection = session.connect(outbox: outbox)
        session.receive(Array(#"{"type":"hello","client":null,"subscribe":["state"]}"#.utf8), from: connection, now: 0)
        session.receive(Array(#"{"type":"action","path":"hisynth.note.on","value":72}"#.utf8), from: connection, now: 0.1)
        #expect(held() == [72])
        session.disconnect(connection, now: 0.2)
        #expect(held() == [])
    }

    @Test("MIDI from JACK's midi_in plays the synth at its frame (note on, velocity 0 as note off)")
    func midiIn() throws {
        let synth = Rig.instrument(preset: HiSynthPreset.factory.last!)
        Rig.render(synth, blocks: 2)
        let before = synth.host.engine.engine.noteLog.totalWritten
        Rig.render(synth, blocks: 8, midi: [TimedMIDIMessage(frameOffset: 100, message: MIDIShortMessage(status: 0x92, data1: 64, data2: 90)!)])
        let s = try #require(synth.host.latestSnapshot().snapshot)
        #expect(s.player.synth.isHeld(64))
        let events = synth.host.engine.engine.noteLog.events()
        #expect(synth.host.engine.engine.noteLog.totalWritten == before + 1)
        #expect(events.last?.note == 64 && events.last?.isOn == true && events.last?.frame == Int64(2 * Rig.block + 100), "at its frame offset")
        Rig.render(synth, blocks: 8, midi: [TimedMIDIMessage(frameOffset: 0, message: MIDIShortMessage(status: 0x90, data1: 64, data2: 0)!)])
        #expect(synth.host.latestSnapshot().snapshot?.player.synth.isHeld(64) == false)
    }

    @Test("the song player: a chosen song starts 0.5 s later, its notes reach the piano roll at their times; stop, loop, tempo")
    func songPlayer() throws {
        let synth = Rig.instrument(preset: HiSynthPreset.factory.last!)
        let index = try #require(synth.songs.firstIndex { $0.title == "Tempo Study" })
        let song = synth.songs[index]
        #expect(try synth.apply(set: "hisynth.player.song", value: .string("Tempo Study")) == ["song": .number(Double(index)), "playing": true])
        Rig.render(synth, seconds: 0.4)
        #expect(synth.host.latestSnapshot().snapshot?.starting == true)
        Rig.render(synth, seconds: 2.5)
        let frame = try #require(synth.frameJSON(now: 10))
        let player = try #require(frame["player"]?.object)
        #expect(player["playing"] == true)
        let position = try #require(player["position"]?.number)
        #expect(position > 1.9 && position < 2.6, "started 0.5 s after the choice: \(position)")
        // Each bar of the roll is a song note: its start (seconds ago) is the song's note time before the position.
        let bars = try #require(frame["roll"]?.array).map { $0.array!.map { $0 } }
        #expect(bars.count >= 8)
        for bar in bars {
            let note = UInt8(bar[0].number!), ago = bar[1].number!
            let time = position - ago
            #expect(song.notes.contains { $0.note == note && abs($0.start - time) < 0.03 }, "note \(note) at \(time) s is not in the song")
        }
        #expect(try synth.apply(action: "hisynth.player.stop", value: .null, client: "a") == ["playing": false])
        Rig.render(synth, blocks: 4)
        #expect(synth.host.latestSnapshot().snapshot?.player.isPlaying == false)
        #expect(synth.host.latestSnapshot().snapshot?.player.position == 0, "stop rewinds")
        #expect(try synth.apply(set: "hisynth.player.loop", value: false) == ["looping": false])
        #expect(try synth.apply(set: "hisynth.player.tempo", value: 2) == ["tempo": 2])
        #expect(try synth.apply(action: "hisynth.player.play", value: .null, client: "a") == ["playing": true])
        Rig.render(synth, seconds: 1)
        let s = try #require(synth.host.latestSnapshot().snapshot)
        #expect(!s.player.isLooping && s.player.tempoScale == 2 && s.player.position > 1.8, "tempo ×2: \(s.player.position)")
    }
}
