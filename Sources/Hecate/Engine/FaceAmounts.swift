import Horatio

/// Everything one face frame sets on the engine, as fixed fields (no dictionaries, so it crosses
/// to the audio thread without allocating): six tone levels, the bass level and five sculpt amounts,
/// each 0…1. Non-finite values become 0 and everything is clamped when the engine applies it.
public struct FaceAmounts: Sendable, Hashable {
    public var root: Float
    public var third: Float
    public var fifth: Float
    public var seventh: Float
    public var ninth: Float
    public var octave: Float
    public var bass: Float
    public var cutoff: Float
    public var resonance: Float
    public var formantF1: Float
    public var formantF2: Float
    public var brightness: Float

    /// A neutral face: the root drones, nothing else.
    public static let neutral = FaceAmounts(
        root: 1, third: 0, fifth: 0, seventh: 0, ninth: 0, octave: 0, bass: 0,
        cutoff: 0, resonance: 0, formantF1: 0, formantF2: 0, brightness: 0)

    public init(
        root: Float, third: Float, fifth: Float, seventh: Float, ninth: Float, octave: Float, bass: Float,
        cutoff: Float, resonance: Float, formantF1: Float, formantF2: Float, brightness: Float
    ) {
        self.root = root
        self.third = third
        self.fifth = fifth
        self.seventh = seventh
        self.ninth = ninth
        self.octave = octave
        self.bass = bass
        self.cutoff = cutoff
        self.resonance = resonance
        self.formantF1 = formantF1
        self.formantF2 = formantF2
        self.brightness = brightness
    }

    /// The amounts a `FaceMappingSet` evaluated for one frame.
    public init(_ output: FaceMappingSet.Output) {
        self.init(
            root: Float(output.level(.root)), third: Float(output.level(.third)), fifth: Float(output.level(.fifth)),
            seventh: Float(output.level(.seventh)), ninth: Float(output.level(.ninth)), octave: Float(output.level(.octave)),
            bass: Float(output.bassLevel),
            cutoff: Float(output.amount(.cutoff)), resonance: Float(output.amount(.resonance)),
            formantF1: Float(output.amount(.formantF1)), formantF2: Float(output.amount(.formantF2)),
            brightness: Float(output.amount(.brightness)))
    }

    /// The level of one chord tone.
    public func level(_ tone: ChordTone) -> Float {
        switch tone {
        case .root: root
        case .third: third
        case .fifth: fifth
        case .seventh: seventh
        case .ninth: ninth
        case .octave: octave
        }
    }

    /// A copy with one tone's level replaced.
    public func with(_ tone: ChordTone, _ value: Float) -> FaceAmounts {
        var copy = self
        switch tone {
        case .root: copy.root = value
        case .third: copy.third = value
        case .fifth: copy.fifth = value
        case .seventh: copy.seventh = value
        case .ninth: copy.ninth = value
        case .octave: copy.octave = value
        }
        return copy
    }
}
