import Ariel
import Horatio
import Touchstone

extension DroneSynthEngine {
    /// Every change to the audio thread's state. Sent through `EngineHost` (a lock-free ring), applied
    /// at the start of the next block (offline: at its exact frame). No case carries anything that
    /// allocates. Out-of-range and non-finite values are clamped or ignored, never passed to the DSP.
    public enum Command: Sendable, Hashable {
        /// One face frame's tone levels, bass level and sculpt amounts.
        case face(FaceAmounts)
        /// One chord tone's level, 0…1.
        case toneLevel(ChordTone, Float)
        /// The bass voice's level, 0…1.
        case bassLevel(Float)
        /// One sculpt amount, 0…1.
        case sculpt(SculptParameter, Float)
        /// The chord on the chord bar (I…vii°); tones glide to it.
        case chord(NashvilleDegree)
        /// The key; the drone glides to its root and the chord is re-voiced.
        case key(MusicalKey)
        /// Tempo in quarter-note beats per minute, 20…300, for the arpeggiator and tremolo.
        case bpm(Double)
        /// Arpeggiator on or off; turning it on restarts the 8-step pattern at step 0.
        case arpeggiator(Bool)
        /// Arpeggiator step length.
        case arpeggiatorDivision(NoteDivision)
        /// Tremolo shape, BPM-synced period and depth 0…1 (0 = off).
        case tremolo(shape: TremoloShape, division: NoteDivision, depth: Float)
        /// Reverb wet mix 0…1 (a preset change resets it to the preset's mix).
        case reverbMix(Float)
        /// Play-along mode and output route: sets the limiter ceiling (−6, −10 or −14 dBFS).
        case output(playAlong: Bool, route: OutputRoute)
        /// A new voice preset (a pack change), applied without a click.
        case preset(VoicePreset)
        /// The face left the camera: fade everything out in about 100 ms.
        case faceLost
        /// The face is back: fade in over about 450 ms.
        case faceFound
    }

    /// Applies a command on the audio thread. Never allocates.
    public func handle(_ command: Command) {
        switch command {
        case .face(let a):
            faceLevels[0] = Self.unit(a.root)
            faceLevels[1] = Self.unit(a.third)
            faceLevels[2] = Self.unit(a.fifth)
            faceLevels[3] = Self.unit(a.seventh)
            faceLevels[4] = Self.unit(a.ninth)
            faceLevels[5] = Self.unit(a.octave)
            bassTarget = Self.unit(a.bass)
            sculptTargets[0] = Self.unit(a.cutoff)
            sculptTargets[1] = Self.unit(a.resonance)
            sculptTargets[2] = Self.unit(a.formantF1)
            sculptTargets[3] = Self.unit(a.formantF2)
            sculptTargets[4] = Self.unit(a.brightness)
            controlSettled = false
            updateToneTargets()
        case .toneLevel(let tone, let level):
            faceLevels[Self.index(of: tone)] = Self.unit(level)
            updateToneTargets()
        case .bassLevel(let level):
            bassTarget = Self.unit(level)
        case .sculpt(let parameter, let amount):
            let slot: Int
            switch parameter {
            case .cutoff: slot = 0
            case .resonance: slot = 1
            case .formantF1: slot = 2
            case .formantF2: slot = 3
            case .brightness: slot = 4
            }
            sculptTargets[slot] = Self.unit(amount)
            controlSettled = false
            if slot == 4 { updateToneTargets() }
        case .chord(let degree):
            degreeIndex = degree.rawValue - 1
            retune()
        case .key(let key):
            keyIndex = key.rawValue
            retune()
        case .bpm(let value):
            guard value.isFinite else { return }
            bpm = min(max(value, 20), 300)
            updateTempo()
        case .arpeggiator(let on):
            if on && !arpEnabled {
                arpStep = 0
                arpStepPhase = 0
                arpStepStarted = true
            }
            arpEnabled = on
            updateGateTargets()
        case .arpeggiatorDivision(let division):
            arpDivisionBeats = division.beats
            updateTempo()
        case .tremolo(let shape, let division, let depth):
            tremoloDivision = division
            tremolo.setWaveform(shape.waveform)
            tremolo.setDepth(depth.isFinite ? min(max(depth, 0), 1) : 0)
            updateTempo()
        case .reverbMix(let mix):
            guard mix.isFinite else { return }
            presetTargets[Slot.reverbMix] = min(max(mix, 0), 1)
            controlSettled = false
        case .output(let playAlong, let route):
            limiter.ceiling = Float(route.limiterCeiling(playAlong: playAlong))
        case .preset(let preset):
            // Packs are validated where they are loaded; here only what could poison the DSP is refused.
            guard Self.isFinite(preset) else { return }
            applyPreset(preset)
        case .faceLost:
            faceFadeTarget = 0
        case .faceFound:
            faceFadeTarget = 1
        }
    }

    /// Hecate is played by the face; MIDI notes do not reach it (chords come from the chord bar).
    public func handle(midi message: MIDIShortMessage) {}

    /// Fades everything out as when the face is lost.
    public func releaseAllNotes() {
        faceFadeTarget = 0
    }

    static func isFinite(_ p: VoicePreset) -> Bool {
        // x · 0 is 0 for every finite x and NaN otherwise, so one bad field makes the sum NaN.
        var sum = p.detuneCents * 0 + p.filterCutoffMin * 0 + p.filterCutoffMax * 0 + p.filterResonanceMin * 0
        sum += p.filterResonanceMax * 0 + p.formantF1Min * 0 + p.formantF1Max * 0 + p.formantF2Min * 0
        sum += p.formantF2Max * 0 + p.formantQ * 0 + p.formantDryMix * 0 + p.formantF1Mix * 0 + p.formantF2Mix * 0
        sum += p.reverbSize * 0 + p.reverbDecay * 0 + p.reverbDamping * 0 + p.reverbMix * 0 + p.subLevel * 0
        sum += p.bassLevel * 0 + p.droneLevel * 0 + p.brightnessCap * 0 + p.breathRate * 0 + p.breathDepth * 0
        return sum == 0
    }

    @inline(__always)
    static func unit(_ x: Float) -> Float { x.isFinite ? min(max(x, 0), 1) : 0 }

    static func index(of tone: ChordTone) -> Int {
        switch tone {
        case .root: 0
        case .third: 1
        case .fifth: 2
        case .seventh: 3
        case .ninth: 4
        case .octave: 5
        }
    }
}
