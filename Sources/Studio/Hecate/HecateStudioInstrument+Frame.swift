import Enobarbus
import Hecate
import Horatio
import InstrumentSettings

extension HecateStudioInstrument {
    /// The HUD frame: at most 30 a second, and only when the engine published a snapshot or a face
    /// arrived since the last one (nil otherwise).
    ///
    /// Members: `face` (in view), `muted`; `meters` {id: {value, amount}} (each 0…1: the raw signal and
    /// what its mappings make of it; absent without a face); `head` {yaw, pitch, roll} in degrees;
    /// `clockBPM` (the MIDI clock's tempo the engine follows, when one runs); and from the engine's snapshot: `tones` {root…octave} and `bass` (0…1), `beat` {arpeggiator,
    /// step 0…7, tremolo, phase 0…1, beatPhase 0…1 (the tempo's quarter-note beat)}, `viz` (``HecateVisualProperties``), `engine` {key, chord, rms,
    /// peak, faceFade, limiterCeiling, gainReduction}.
    public func frameJSON(now: Double) -> [String: StudioValue]? {
        guard now - lastFrameTime >= 1 / Self.maximumFrameRate - 0.002 else { return nil }
        let (snapshot, isNew) = host.latestSnapshot()
        if let snapshot { lastSnapshot = snapshot }
        guard isNew || faceChanged else { return nil }
        lastFrameTime = now
        faceChanged = false
        var frame: [String: StudioValue] = ["face": .bool(faceInView), "muted": .bool(settings.muted)]
        if let bpm = live.followedBPM { frame["clockBPM"] = .number(bpm) }
        if let face = live.lastFace, faceInView {
            var readings: [String: StudioValue] = [:]
            for meter in meters {
                guard let r = meter.reading(face, mappings: mappings) else { continue }
                readings[meter.id] = .object(["value": .number(r.value), "amount": .number(r.amount)])
            }
            frame["meters"] = .object(readings)
            frame["head"] = .object([
                "yaw": .number(Self.finite(face.head.yaw)), "pitch": .number(Self.finite(face.head.pitch)),
                "roll": .number(Self.finite(face.head.roll)),
            ])
        }
        if let s = lastSnapshot {
            frame["tones"] = .object([
                "root": .number(Self.finite(s.root)), "third": .number(Self.finite(s.third)),
                "fifth": .number(Self.finite(s.fifth)), "seventh": .number(Self.finite(s.seventh)),
                "ninth": .number(Self.finite(s.ninth)), "octave": .number(Self.finite(s.octave)),
            ])
            frame["bass"] = .number(Self.finite(s.bass))
            let tremoloOn = settings.tremolo != "off" && settings.tremoloDepth > 0
            frame["beat"] = .object([
                "arpeggiator": .bool(s.arpeggiatorOn), "step": .number(Double(s.arpeggiatorStep)),
                "tremolo": .bool(tremoloOn), "phase": .number(Self.finite(s.tremoloPhase)),
                "beatPhase": .number(Self.finite(s.beatPhase)),
            ])
            frame["viz"] = HecateVisualProperties(s, tremoloOn: tremoloOn, brightnessCap: pack.preset.brightnessCap).json
            let key = MusicalKey(rawValue: s.key).map { HecateStudioSettings.keyNames[$0.rawValue] } ?? "?"
            frame["engine"] = .object([
                "key": .string(key), "chord": .number(Double(s.chord)), "rms": .number(Self.finite(s.rms)),
                "peak": .number(Self.finite(s.peak)), "faceFade": .number(Self.finite(s.faceFade)),
                "limiterCeiling": .number(Self.finite(s.limiterCeiling)), "gainReduction": .number(Self.finite(s.gainReduction)),
            ])
        }
        return frame
    }

    static func finite(_ x: Float) -> Double { x.isFinite ? Double(x) : 0 }
}
