import Enobarbus
import Hecate
import Horatio
import Touchstone

/// Hecate's control ports, in port order after the standard ports. Symbols are stable.
///
/// The face: five blendshapes 0…1 (ARKit names), the head's yaw, pitch and roll in degrees with the
/// ranges `FaceSignal` maps to 0…1, and whether a face is present (the engine fades in and out as when a
/// face enters or leaves the camera). The rest: pack, key, chord, tempo (the host's transport or the
/// `bpm` port), arpeggiator, tremolo and reverb mix.
public enum HecateLV2Controls {
    public enum Slot: Int, CaseIterable {
        case jawOpen, browInnerUp, cheekPuff, mouthPucker, mouthSmile, headYaw, headPitch, headRoll, facePresent
        case pack, key, chord, tempoSync, bpm, arpeggiator, arpeggiatorDivision, tremoloShape, tremoloDivision, tremoloDepth
        case reverbMix
    }

    /// The note values the arpeggiator and tremolo offer, in port value order (1/1 … 1/32; straight, dotted, triplet).
    public static let divisions = NoteDivision.allDivisions

    static func label(_ d: NoteDivision) -> String {
        "1/\(d.denominator)" + (d.modifier == .straight ? "" : " \(d.modifier.rawValue)")
    }

    static func angle(_ degrees: Double) -> LV2Control {
        LV2Control(range: -degrees...degrees, defaultValue: 0, unit: .degrees)
    }

    /// Port symbol, name and control per slot.
    public static let all: [(symbol: String, name: String, control: LV2Control)] = Slot.allCases.map { slot in
        let unit = LV2Control(range: Float(0)...1, defaultValue: 0)
        switch slot {
        case .jawOpen: return ("jaw_open", "Jaw open (5th, bass)", unit)
        case .browInnerUp: return ("brow_inner_up", "Brow inner up (3rd)", unit)
        case .cheekPuff: return ("cheek_puff", "Cheek puff (7th)", unit)
        case .mouthPucker: return ("mouth_pucker", "Mouth pucker (7th, 9th)", unit)
        case .mouthSmile: return ("mouth_smile", "Mouth smile (brightness)", unit)
        case .headYaw: return ("head_yaw", "Head yaw (cutoff)", angle(FaceSignal.yawRangeDegrees))
        case .headPitch: return ("head_pitch", "Head pitch (formant 2)", angle(FaceSignal.pitchRangeDegrees))
        case .headRoll: return ("head_roll", "Head roll (resonance)", angle(FaceSignal.rollRangeDegrees))
        case .facePresent: return ("face_present", "Face present", .toggle(true))
        case .pack: return ("pack", "Sound pack", .enumeration(SoundPack.builtIn.map(\.name), defaultIndex: 0))
        case .key: return ("key", "Key", .enumeration(MusicalKey.allCases.map(\.description), defaultIndex: MusicalKey.c.rawValue))
        case .chord: return ("chord", "Chord", .enumeration(NashvilleDegree.allCases.map(\.romanNumeral), defaultIndex: 0))
        case .tempoSync: return ("tempo_sync", "Follow host tempo", .toggle(true))
        case .bpm: return ("bpm", "Tempo", LV2Control(range: DroneSynthEngine.bpmRange, defaultValue: 90, unit: .beatsPerMinute))
        case .arpeggiator: return ("arpeggiator", "Arpeggiator", .toggle(false))
        case .arpeggiatorDivision:
            return ("arp_division", "Arpeggiator step", .enumeration(divisions.map(label), defaultIndex: divisions.firstIndex(of: .eighth)!))
        case .tremoloShape:
            return ("tremolo_shape", "Tremolo shape", .enumeration(TremoloShape.allCases.map(\.rawValue), defaultIndex: 0))
        case .tremoloDivision:
            return ("tremolo_division", "Tremolo period", .enumeration(divisions.map(label), defaultIndex: divisions.firstIndex(of: .quarter)!))
        case .tremoloDepth: return ("tremolo_depth", "Tremolo depth", unit)
        case .reverbMix:
            return ("reverb_mix", "Reverb mix", LV2Control(range: Float(0)...1, defaultValue: Float(SoundPack.builtIn[0].preset.reverbMix)))
        }
    }
}
