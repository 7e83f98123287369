/// The seven reverb presets HiSynth can reach (AVAudioUnitReverb factory presets), approximated with
/// Touchstone's `FeedbackDelayNetworkReverb`.
///
/// The original maps room sizes 1/2/3 to small/medium/large room and hall sizes 1/2/3 to medium hall,
/// large hall and large hall 2; plate (type 0) is not in its UI but is accepted. Apple's presets are
/// closed; the decay times, sizes, damping and diffusion below are ours, chosen so the variants rise
/// in length and size in the same order (rooms 0.45…1.3 s, halls 1.9…3.4 s, a bright dense plate).
public enum HiSynthReverbVariant: UInt8, Sendable, Hashable, CaseIterable {
    case plate, smallRoom, mediumRoom, largeRoom, mediumHall, largeHall, largeHall2

    /// RT60 in seconds.
    public var decayTime: Float {
        switch self {
        case .plate: 1.8
        case .smallRoom: 0.45
        case .mediumRoom: 0.8
        case .largeRoom: 1.3
        case .mediumHall: 1.9
        case .largeHall: 2.6
        case .largeHall2: 3.4
        }
    }

    /// `FeedbackDelayNetworkReverb.size` (delay-length scale; 1 ≈ a medium room).
    public var size: Float {
        switch self {
        case .plate: 0.5
        case .smallRoom: 0.45
        case .mediumRoom: 0.7
        case .largeRoom: 1.0
        case .mediumHall: 1.6
        case .largeHall: 2.2
        case .largeHall2: 2.8
        }
    }

    /// High-frequency damping 0…1.
    public var damping: Float {
        switch self {
        case .plate: 0.1
        case .smallRoom: 0.5
        case .mediumRoom: 0.45
        case .largeRoom: 0.4
        case .mediumHall: 0.35
        case .largeHall, .largeHall2: 0.3
        }
    }

    /// Input diffusion 0…0.75.
    public var diffusion: Float {
        switch self {
        case .plate, .largeHall2: 0.75
        case .smallRoom: 0.6
        case .mediumRoom: 0.65
        case .largeRoom, .mediumHall, .largeHall: 0.7
        }
    }

    /// The original's mapping of (type code, size): plate for code 0; room sizes 1/2/3; hall sizes 1/2/3.
    /// `size` is rounded to the nearest of 1…3 (the UI steps by 1).
    public static func variant(typeCode: Int, size: Double) -> HiSynthReverbVariant {
        let step = size.isFinite ? Int(min(max(size, 1), 3).rounded()) : 2
        switch typeCode {
        case 0: return .plate
        case 2: return [.mediumHall, .largeHall, .largeHall2][step - 1]
        default: return [.smallRoom, .mediumRoom, .largeRoom][step - 1]
        }
    }
}
