import Enobarbus
import Foundation
import Hecate
import Horatio
import InstrumentSettings
import Studio
import Testing

/// Hecate's studio controller: controls validated with typed errors, the chord bar reaching the
/// engine (read back from the audio thread's snapshot), and HUD frames from face input and snapshots.
@Suite("Hecate studio instrument")
struct HecateStudioInstrumentTests {
    /// Renders `blocks` blocks of 256 frames through the instrument's audio engine (as the driver does).
    static func render(_ hecate: HecateStudioInstrument, blocks: Int) {
        var l = [Float](repeating: 0, count: 256), r = l
        hecate.audio.prepare(sampleRate: 48_000, maximumFrames: 256)
        for _ in 0..<blocks {
            l.withUnsafeMutableBufferPointer { lp in
                r.withUnsafeMutableBufferPointer { rp in hecate.audio.render(frameCount: 256, left: lp.baseAddress!, right: rp.baseAddress!) }
            }
        }
    }

    static func face(jaw: Float = 0, brow: Float = 0, smile: Float = 0, yaw: Float = 0, pitch: Float = 0, roll: Float = 0, at t: Double) -> TrackingFrame {
        .face(FaceFrame(timestamp: t,
                        blendshapes: BlendshapeWeights([.jawOpen: jaw, .browInnerUp: brow, .mouthSmileLeft: smile, .mouthSmileRight: smile]),
                        head: HeadRotation(yaw: yaw, pitch: pitch, roll: roll)))
    }

    @Test("every control refuses a wrong type, an unknown name and a value out of range, and changes nothing")
    func validation() throws {
        let hecate = HecateStudioInstrument()
        let before = hecate.stateJSON()
        let refused: [(String, StudioValue, String)] = [
            ("hecate.key", "H", "out_of_range"), ("hecate.key", 3, "bad_value"),
            ("hecate.bpm", 19.9, "out_of_range"), ("hecate.bpm", 301, "out_of_range"), ("hecate.bpm", "fast", "bad_value"),
            ("hecate.bpm", .number(.nan), "bad_value"),
            ("hecate.pack", "../../etc/passwd", "out_of_range"), ("hecate.pack", "cathedral.json", "out_of_range"),
            ("hecate.arpeggiator", 1, "bad_value"), ("hecate.arpDivision", "1/7", "out_of_range"),
            ("hecate.tremolo", "wobble", "out_of_range"), ("hecate.tremoloDepth", 1.5, "out_of_range"),
            ("hecate.route", "hdmi", "out_of_range"), ("hecate.bassLevel", -0.1, "out_of_range"),
            ("hecate.reverb", .null, "bad_value"), ("hecate.volume", 1, "unknown_control"),
            ("hands.key", "C", "unknown_control"), ("hecate.", 1, "unknown_control"),
            ("hecate.chord", 8, "out_of_range"), ("hecate.chord", 2.5, "out_of_range"), ("hecate.chord", "VIII", "out_of_range"),
        ]
        for (path, value, code) in refused {
            #expect(throws: StudioError.self) { _ = try hecate.apply(set: path, value: value) }
            do { _ = try hecate.apply(set: path, value: value) } catch { #expect(error.code == code, "\(path) = \(value)") }
        }
        for (path, value, code) in [("hecate.chord", StudioValue(0), "out_of_range"), ("hecate.chord", StudioValue(1e300), "out_of_range"),
                                    ("hecate.chord", StudioValue(true), "bad_value"), ("hecate.mute", StudioValue("yes"), "bad_value"),
                                    ("hecate.explode", .null, "unknown_control")] {
            do { _ = try hecate.apply(action: path, value: value); Issue.record("\(path) accepted") } catch { #expect(error.code == code, "\(path)") }
        }
        #expect(hecate.stateJSON() == before)
    }

    @Test("accepted controls answer with exactly what changed")
    func changes() throws {
        let hecate = HecateStudioInstrument()
        #expect(try hecate.apply(set: "hecate.bpm", value: 120) == ["bpm": 120])
        #expect(try hecate.apply(set: "hecate.bpm", value: 120) == [:])
        #expect(try hecate.apply(set: "hecate.playAlong", value: true) == ["playAlong": true, "limiterCeiling": -10])
        #expect(try hecate.apply(set: "hecate.route", value: "bluetooth") == ["route": "bluetooth", "limiterCeiling": -14])
        let key = try hecate.apply(set: "hecate.key", value: "Eb")
        #expect(key["key"] == "Eb")
        // The chord bar is re-spelled for the key: ii in E♭ is Fm, vii° is D° (spelled in ASCII as Horatio writes symbols).
        let chords = key["chords"]?.array?.compactMap { $0.object?["name"]?.string }
        #expect(chords == ["Eb", "Fm", "Gm", "Ab", "Bb", "Cm", "D°"])
        // A pack brings its levels and its visual; the client names the pack by id only.
        let coven = try hecate.apply(set: "hecate.pack", value: "coven")
        #expect(coven["pack"] == "coven" && coven["bassLevel"] == .number(SoundPack.coven.preset.bassLevel))
        #expect(coven["visual"]?.object?["shader"] == "spiral-plasma")
        #expect(coven["visual"]?.object?["overrides"]?.object?["feedbackDecay"] == 0.9)
        #expect(try hecate.apply(set: "hecate.bassLevel", value: 0.25) == ["bassLevel": 0.25])
        #expect(try hecate.apply(action: "hecate.mute", value: .null) == ["muted": true])
        #expect(try hecate.apply(action: "hecate.mute", value: false) == ["muted": false])
        #expect(try hecate.apply(set: "hecate.tremolo", value: "square") == ["tremolo": "square"])
    }

    @Test("a chord-bar action changes the chord the engine plays", arguments: [(StudioValue(4), 4), ("vii°", 7), ("V", 5), (2, 2)])
    func chordBar(value: StudioValue, degree: Int) throws {
        let hecate = HecateStudioInstrument()
        Self.render(hecate, blocks: 8)
        #expect(hecate.host.latestSnapshot().snapshot?.chord == 1)
        #expect(try hecate.apply(action: "hecate.chord", value: value) == ["chord": .number(Double(degree))])
        Self.render(hecate, blocks: 8)
        let frame = try #require(hecate.frameJSON(now: 1))
        #expect(frame["engine"]?.object?["chord"] == .number(Double(degree)))
        #expect(hecate.host.latestSnapshot().snapshot?.chord == degree)
        #expect(hecate.stateJSON()["chord"] == .number(Double(degree)))
    }

    @Test("face frames move the HUD: meters with their mapped amounts, head angles, tones, face lost and found")
    func hudFrames() throws {
        let hecate = HecateStudioInstrument()
        hecate.audio.prepare(sampleRate: 48_000, maximumFrames: 256)
        #expect(hecate.frameJSON(now: 0) == nil, "nothing new: no frame")
        hecate.receive([Self.face(jaw: 0.75, brow: 0.5, smile: 1, yaw: 22.5, pitch: -6, roll: 9, at: 0)], at: 0)
        Self.render(hecate, blocks: 40)  // the 450 ms fade-in, smoothing settled
        hecate.receive([Self.face(jaw: 0.75, brow: 0.5, smile: 1, yaw: 22.5, pitch: -6, roll: 9, at: 0.2)], at: 0.2)
        Self.render(hecate, blocks: 40)
        let frame = try #require(hecate.frameJSON(now: 1))
        #expect(frame["face"] == true)
        let meters = try #require(frame["meters"]?.object)
        #expect(Set(meters.keys) == ["jaw", "brow", "cheek", "pucker", "turn", "nod", "tilt", "smile"])
        func reading(_ id: String) -> (Double, Double) {
            (meters[id]?.object?["value"]?.number ?? -1, meters[id]?.object?["amount"]?.number ?? -1)
        }
        // Jaw 0.75: past the 5th's window (0–0.5) it is full; halfway into the bass window (0.5–1).
        #expect(abs(reading("jaw").0 - 0.75) < 1e-6 && abs(reading("jaw").1 - 1) < 1e-6)
        #expect(abs(reading("brow").1 - 0.5) < 1e-6)
        // Yaw 22.5° of ±45° → 0.75 on the signal, 0.25 from centre = the top of the cutoff window.
        #expect(abs(reading("turn").0 - 0.75) < 1e-6 && abs(reading("turn").1 - 1) < 1e-6)
        // Roll 9° → 0.6, 0.1 from centre of the 0–0.12 window → 0.833.
        #expect(abs(reading("tilt").1 - 0.1 / 0.12) < 1e-5)
        // Pitch −6° of ±30° → 0.4 on the signal, 0.1 from centre of the 0–0.20 window → 0.5.
        #expect(abs(reading("nod").0 - 0.4) < 1e-6 && abs(reading("nod").1 - 0.5) < 1e-5)
        for (_, v) in meters {
            let value = v.object?["value"]?.number ?? -1, amount = v.object?["amount"]?.number ?? -1
            #expect((0...1).contains(value) && (0...1).contains(amount))
        }
        #expect(frame["head"]?.object?["yaw"] == 22.5 && frame["head"]?.object?["roll"] == 9)
        let tones = try #require(frame["tones"]?.object)
        // Root at rest, 5th from the jaw, 3rd from the brow (0.5); 7th and 9th silent.
        #expect(abs((tones["root"]?.number ?? 0) - 1) < 0.05 && abs((tones["fifth"]?.number ?? 0) - 1) < 0.05)
        #expect(abs((tones["third"]?.number ?? 0) - 0.5) < 0.05 && (tones["ninth"]?.number ?? 1) < 0.01)
        #expect(abs((frame["bass"]?.number ?? 0) - 0.5) < 0.05)
        let viz = try #require(frame["viz"]?.object)
        for key in ["density", "bloom", "pump", "drift", "glow", "stretch", "brightness"] {
            let v = viz[key]?.number ?? -1
            #expect((0...1).contains(v), "\(key) = \(v)")
        }
        #expect((viz["glow"]?.number ?? 0) > 0.95, "a full smile glows fully")
        #expect((viz["rms"]?.number ?? 0) > 0.005 && viz["idle"] == false)
        #expect(frame["beat"]?.object?["arpeggiator"] == false)

        // 30 Hz at most: a frame 10 ms later is refused.
        hecate.receive([Self.face(jaw: 0.1, at: 0.3)], at: 0.3)
        #expect(hecate.frameJSON(now: 1.01) == nil)
        // The face leaves: after the lifecycle's timeout the HUD says so and the meters go.
        hecate.advance(to: 1.0)
        Self.render(hecate, blocks: 20)
        let lost = try #require(hecate.frameJSON(now: 1.1))
        #expect(lost["face"] == false && lost["meters"] == nil)
        #expect((lost["engine"]?.object?["faceFade"]?.number ?? 1) < 0.01)
    }

    @Test("mute ramps the sound out and holds it out while the face plays; unmute brings it back")
    func mute() throws {
        let hecate = HecateStudioInstrument()
        hecate.receive([Self.face(jaw: 0.4, at: 0)], at: 0)
        Self.render(hecate, blocks: 100)  // the 450 ms fade-in
        #expect((hecate.host.latestSnapshot().snapshot?.faceFade ?? 0) > 0.99)
        _ = try hecate.apply(action: "hecate.mute", value: .null)
        for i in 1...10 {
            hecate.receive([Self.face(jaw: 0.4, at: Double(i) * 0.03)], at: Double(i) * 0.03)
            Self.render(hecate, blocks: 4)
        }
        #expect((hecate.host.latestSnapshot().snapshot?.faceFade ?? 1) < 0.001)
        _ = try hecate.apply(action: "hecate.mute", value: .null)
        Self.render(hecate, blocks: 100)
        #expect((hecate.host.latestSnapshot().snapshot?.faceFade ?? 0) > 0.99)
    }

    @Test("the state lists packs by id, the seed's eight meters with their windows, and the choices")
    func state() throws {
        let user = SoundPack(id: "smoke", name: "Smoke", summary: "test", preset: SoundPack.coven.preset, visual: "unknown-shader")
        var bad = user
        bad.id = "cathedral"
        let library = HecatePackLibrary(userFiles: [("smoke.json", user.jsonData()), ("taken.json", bad.jsonData()), ("junk.json", Data("{".utf8))])
        #expect(library.ids == ["cathedral", "coven", "smoke"])
        #expect(library.problems.count == 2)
        let hecate = HecateStudioInstrument(library: library)
        let state = hecate.stateJSON()
        let packs = try #require(state["packs"]?.array)
        #expect(packs.compactMap { $0.object?["id"]?.string } == ["cathedral", "coven", "smoke"])
        // A user pack naming an unknown visual gets the one for its waveform (saw → plasma).
        #expect(packs[2].object?["visual"] == "spiral-plasma" && packs[2].object?["builtIn"] == false)
        for pack in packs { #expect(pack.object?["path"] == nil && pack.object?["file"] == nil) }
        let meters = (state["meters"]?.array ?? []).compactMap { $0.object }
        try #require(meters.count == 8)
        #expect(meters.map { $0["label"] } == ["JAW", "BROW", "CHEEK", "PUCKER", "TURN", "NOD", "TILT", "SMILE"])
        #expect(meters.map { $0["colour"] } == ["#F25933", "#A633D9", "#4DD9F2", "#66D173", "#A633D9", "#4DD9F2", "#F29933", "#66D173"])
        let turn = try #require(meters[4]["mappings"]?.array?.first?.object)
        #expect(turn["range"] == "0–0.25 from centre" && turn["drives"] == "filter cutoff")
        let jaw = (meters[0]["mappings"]?.array ?? []).compactMap { $0.object }
        #expect(jaw.map { $0["drives"] } == ["5th", "bass note", "formant F1 (vowel openness)"])
        #expect(state["choices"]?.object?["key"]?.array?.count == 12)
        #expect(HecatePackLibrary.userPackDirectory(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/prospero/packs")
        #expect(HecatePackLibrary.userPackDirectory(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]) == "/h/.config/prospero/packs")
        #expect(HecatePackLibrary.userPackDirectory(environment: [:]) == nil)
    }
}
