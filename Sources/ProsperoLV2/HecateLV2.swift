import Ariel
import Enobarbus
import Hecate
import Horatio
import Touchstone

/// Hecate as an LV2 instrument: `DroneSynthEngine` played by the face as control ports (automation, a
/// host's MIDI learn or a tracker moves them) and by MIDI notes choosing the chord.
///
/// Chords from MIDI: the note played picks the chord degree in the key by its pitch class (in C: C → I,
/// D → ii, E → iii, F → IV, G → V, A → vi, B → vii°; a note between two scale steps picks the lower one,
/// C♯ → I). Hecate's chord bar offers exactly the seven diatonic chords of the key, so one finger per
/// chord, in any octave, reaches all of them; reading the lowest note of a held chord as its root would
/// need the player to voice chords Hecate then re-voices anyway, and a root outside the scale has no chord.
///
/// Tempo: with `tempo_sync` on, the host's transport (`time:Position` beatsPerMinute in the event
/// input) sets the arpeggiator's and tremolo's tempo at its frame; otherwise the `bpm` port does.
public final class HecateLV2: LV2Plugin {
    public static let uri = "urn:prospero:lv2:hecate"
    typealias Slot = HecateLV2Controls.Slot

    public override class var info: LV2PluginInfo { description }

    static let description = LV2PluginInfo(
        uri: uri, name: "Prospero Hecate", bundleName: "prospero-hecate.lv2",
        ports: LV2PluginInfo.standardPorts(timePosition: true)
            + HecateLV2Controls.all.map { LV2Port(symbol: $0.symbol, name: $0.name, kind: .control($0.control)) })

    /// Semitones above the key's tonic → the degree a note there picks (lower scale step between two).
    static let degreeOfInterval: [NashvilleDegree] = [.one, .one, .two, .two, .three, .four, .four, .five, .five, .six, .six, .seven]

    static let shapes = TremoloShape.allCases

    let driver: LV2EngineDriver<DroneSynthEngine>
    let controls: LV2ControlValues
    let face = HecateLV2FaceMapping(.hecateDefaults)
    let signals = UnsafeMutableBufferPointer<Double>.allocate(capacity: HecateLV2FaceMapping.Signal.allCases.count)
    let packs = SoundPack.builtIn.map(\.preset)
    var hostBPM: Double?
    /// Set by `activate`: the next `run` starts the engine from the ports at once (a face present fades in).
    var starting = true

    public required init(sampleRate: Double, uris: LV2URIDs) {
        controls = LV2ControlValues(HecateLV2Controls.all.map(\.control))
        signals.initialize(repeating: 0)
        driver = LV2EngineDriver(engine: DroneSynthEngine(preset: SoundPack.builtIn[0].preset, key: .c), sampleRate: sampleRate)
        super.init(sampleRate: sampleRate, uris: uris)
        for slot in Slot.allCases { apply(slot, value(slot)) }
        applyFace()
    }

    deinit { signals.deallocate() }

    public override func activate() { starting = true }

    public override func run(frameCount: Int) {
        guard let left = ports.floats(1), let right = ports.floats(2) else { return }
        var faceMoved = false
        controls.update(from: ports, first: LV2PluginInfo.firstControlIndex) { i, value in
            let slot = Slot(rawValue: i)!
            if slot.rawValue <= Slot.headRoll.rawValue {
                faceMoved = true
            } else {
                apply(slot, controls.controls[i].clamp(value))
            }
        }
        if faceMoved { applyFace() }
        if starting {
            // Silence and every setting without a glide; the reset also forgets the face, so a face
            // present on the ports is found again (and fades in, as when a face enters the camera).
            driver.engine.reset()
            if value(.facePresent) >= 0.5 { driver.engine.handle(.faceFound) }
            applyFace()
            starting = false
        }
        let engine = driver.engine
        let uris = self.uris
        driver.run(frameCount: frameCount, left: left, right: right, events: ports.raw(0).map { UnsafeRawPointer($0) }) { type, body, size in
            if type == uris.midiEvent {
                guard let message = LV2AtomSequence.midiMessage(body, size: size),
                      message.status & 0xF0 == 0x90, message.data2 > 0 else { return }
                engine.handle(.chord(degree(of: message.data1)))
            } else if type == uris.atomObject || type == uris.atomBlank {
                guard let bpm = LV2AtomSequence.beatsPerMinute(body, size: size, uris: uris), bpm.isFinite, bpm > 0 else { return }
                hostBPM = bpm
                if value(.tempoSync) >= 0.5 { engine.handle(.bpm(bpm)) }
            }
        }
        ports.floats(3)?.pointee = Float(engine.latencySamples)
    }

    /// The control's last value, clamped to its range.
    @inline(__always)
    func value(_ slot: Slot) -> Float { controls.controls[slot.rawValue].clamp(controls[slot.rawValue]) }

    /// The chord degree a MIDI note picks in the current key.
    func degree(of note: UInt8) -> NashvilleDegree {
        let tonic = Int(value(.key))
        return Self.degreeOfInterval[((Int(note) - tonic) % 12 + 12) % 12]
    }

    /// The face ports as the engine's amounts.
    func applyFace() {
        typealias S = HecateLV2FaceMapping.Signal
        signals[S.jawOpen.rawValue] = Double(value(.jawOpen))
        signals[S.browInnerUp.rawValue] = Double(value(.browInnerUp))
        signals[S.cheekPuff.rawValue] = Double(value(.cheekPuff))
        signals[S.mouthPucker.rawValue] = Double(value(.mouthPucker))
        signals[S.smile.rawValue] = Double(value(.mouthSmile))
        signals[S.yaw.rawValue] = FaceSignal.normalisedAngle(Double(value(.headYaw)), range: FaceSignal.yawRangeDegrees)
        signals[S.pitch.rawValue] = FaceSignal.normalisedAngle(Double(value(.headPitch)), range: FaceSignal.pitchRangeDegrees)
        signals[S.roll.rawValue] = FaceSignal.normalisedAngle(Double(value(.headRoll)), range: FaceSignal.rollRangeDegrees)
        let amounts = face.amounts(UnsafeBufferPointer(signals))
        // A face frame also means "a face is in view" to the engine; without one, only the fade-out holds.
        if value(.facePresent) >= 0.5 { driver.engine.handle(.face(amounts)) }
    }

    /// Applies one non-face control's value (already clamped).
    func apply(_ slot: Slot, _ amount: Float) {
        let engine = driver.engine
        let divisions = HecateLV2Controls.divisions
        switch slot {
        case .jawOpen, .browInnerUp, .cheekPuff, .mouthPucker, .mouthSmile, .headYaw, .headPitch, .headRoll:
            applyFace()
        case .facePresent:
            if amount >= 0.5 { engine.handle(.faceFound); applyFace() } else { engine.handle(.faceLost) }
        case .pack:
            engine.handle(.preset(packs[min(Int(amount), packs.count - 1)]))
            engine.handle(.reverbMix(value(.reverbMix)))
        case .key:
            engine.handle(.key(MusicalKey(rawValue: Int(amount)) ?? .c))
        case .chord:
            engine.handle(.chord(NashvilleDegree(rawValue: Int(amount) + 1) ?? .one))
        case .tempoSync, .bpm:
            let synced = value(.tempoSync) >= 0.5
            engine.handle(.bpm(synced ? hostBPM ?? Double(value(.bpm)) : Double(value(.bpm))))
        case .arpeggiator:
            engine.handle(.arpeggiator(amount >= 0.5))
        case .arpeggiatorDivision:
            engine.handle(.arpeggiatorDivision(divisions[min(Int(amount), divisions.count - 1)]))
        case .tremoloShape, .tremoloDivision, .tremoloDepth:
            engine.handle(.tremolo(
                shape: Self.shapes[min(Int(value(.tremoloShape)), Self.shapes.count - 1)],
                division: divisions[min(Int(value(.tremoloDivision)), divisions.count - 1)],
                depth: value(.tremoloDepth)))
        case .reverbMix:
            engine.handle(.reverbMix(amount))
        }
    }
}
