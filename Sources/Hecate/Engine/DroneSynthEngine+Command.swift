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
        /// The face is in view (first seen, or back): fade in over about 450 ms. A `.face` frame
        /// does the same, so the engine, silent until a face is seen, also fades in on a first frame.
        case faceFound
        /// MIDI out on channel 1…16 (what the voices play, ``HecateMIDIMap``, into `midiOutbox`), or off
        /// (nil: a note-off for every sounding note and All Notes Off first).
        case midiOut(channel: Int?)
    }

    /// Applies a command on the audio thread. Never allocates.
    public func handle(_ command: Command) {
        typealias Sculpt = DroneControls.Sculpt
        switch command {
        case .face(let a):
            tones.faceLevels[0] = Self.unit(a.root)
            tones.faceLevels[1] = Self.unit(a.third)
            tones.faceLevels[2] = Self.unit(a.fifth)
            tones.faceLevels[3] = Self.unit(a.seventh)
            tones.faceLevels[4] = Self.unit(a.ninth)
            tones.faceLevels[5] = Self.unit(a.octave)
            pedals.bassTarget = Self.unit(a.bass)
            controls.setSculpt(Sculpt.cutoff, Self.unit(a.cutoff))
            controls.setSculpt(Sculpt.resonance, Self.unit(a.resonance))
            controls.setSculpt(Sculpt.formantF1, Self.unit(a.formantF1))
            controls.setSculpt(Sculpt.formantF2, Self.unit(a.formantF2))
            controls.setSculpt(Sculpt.brightness, Self.unit(a.brightness))
            updateToneTargets()
            // A face frame means a face is in view: a host that sends frames without `.faceFound`
            // (a benchmark, a test, a UI) still fades in, and never stays silent behind a missed event.
            fade.faceFound()
        case .toneLevel(let tone, let level):
            tones.faceLevels[Self.index(of: tone)] = Self.unit(level)
            updateToneTargets()
        case .bassLevel(let level):
            pedals.bassTarget = Self.unit(level)
        case .sculpt(let parameter, let amount):
            let index: Int
            switch parameter {
            case .cutoff: index = Sculpt.cutoff
            case .resonance: index = Sculpt.resonance
            case .formantF1: index = Sculpt.formantF1
            case .formantF2: index = Sculpt.formantF2
            case .brightness: index = Sculpt.brightness
            }
            controls.setSculpt(index, Self.unit(amount))
            if index == Sculpt.brightness { updateToneTargets() }
        case .chord(let degree):
            degreeIndex = degree.rawValue - 1
            retune()
        case .key(let key):
            keyIndex = key.rawValue
            retune()
        case .bpm(let value):
            guard value.isFinite else { return }
            bpm = min(max(value, Self.bpmRange.lowerBound), Self.bpmRange.upperBound)
            updateTempo()
        case .arpeggiator(let on):
            arpeggiator.turn(on: on, faceLevels: tones.faceLevels)
        case .arpeggiatorDivision(let division):
            arpeggiator.setDivision(division)
            updateTempo()
        case .tremolo(let shape, let division, let depth):
            effects.tremoloDivision = division
            effects.tremolo.setWaveform(shape.waveform)
            effects.tremolo.setDepth(depth.isFinite ? min(max(depth, 0), 1) : 0)
            updateTempo()
        case .reverbMix(let mix):
            guard mix.isFinite else { return }
            controls.setPreset(DroneControls.Slot.reverbMix, min(max(mix, 0), 1))
        case .output(let playAlong, let route):
            output.limiter.ceiling = Float(route.limiterCeiling(playAlong: playAlong))
        case .preset(let preset):
            // Packs are validated where they are loaded; here only what could poison the DSP is refused.
            guard Self.isFinite(preset) else { return }
            applyPreset(preset)
        case .faceLost:
            fade.faceLost()
        case .faceFound:
            fade.faceFound()
        case .midiOut(let channel):
            midi.setChannel(channel, frame: framePosition, outbox: midiOutbox)
        }
    }

    /// Hecate is played by the face; MIDI notes do not reach it (chords come from the chord bar).
    public func handle(midi message: MIDIShortMessage) {}

    /// Fades everything out as when the face is lost.
    public func releaseAllNotes() {
        fade.faceLost()
    }

    /// Audio thread: the MIDI receiver already ended every note this engine sent (its host released
    /// them, e.g. when another instrument took over `midi_out`). MIDI out starts afresh at the next
    /// control tick: sounding voices as new notes, every controller.
    public func forgetSentMIDI() {
        midi.forget()
    }

    /// `x` clamped to 0…1; non-finite becomes 0.
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
