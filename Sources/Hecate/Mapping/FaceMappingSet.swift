import Horatio

/// A set of face mappings evaluated together into tone levels, bass level and sculpt amounts.
///
/// Several mappings to the same target combine with max(), so two expressions that both add the
/// 7th never fight (last-write-wins would make the 7th flicker between them). Tones with a rest
/// level (the root drone) never fall below it.
public struct FaceMappingSet: Hashable, Sendable, Codable {
    public var mappings: [FaceMapping]
    /// Level each tone holds with a neutral face (the seed: the root drones at rest).
    public var restLevels: [ChordTone: Double]

    public init(mappings: [FaceMapping], restLevels: [ChordTone: Double] = [.root: 1]) {
        self.mappings = mappings
        self.restLevels = restLevels
    }

    /// The evaluated targets for one face frame.
    public struct Output: Equatable, Sendable {
        /// Level 0…1 per chord tone, indexed by `ChordTone.allCases` order.
        public var toneLevels: [ChordTone: Double] = [:]
        public var bassLevel: Double = 0
        public var sculpt: [SculptParameter: Double] = [:]

        public func level(_ tone: ChordTone) -> Double { toneLevels[tone] ?? 0 }
        public func amount(_ parameter: SculptParameter) -> Double { sculpt[parameter] ?? 0 }
    }

    /// Evaluates every mapping against `read`, which returns a signal's 0…1 value or nil when the
    /// frame lacks it (a missing signal contributes nothing).
    public func evaluate(_ read: (FaceSignal) -> Double?) -> Output {
        var out = Output()
        for tone in ChordTone.allCases { out.toneLevels[tone] = restLevels[tone] ?? 0 }
        for mapping in mappings {
            guard let value = read(mapping.source) else { continue }
            let amount = mapping.amount(for: value)
            switch mapping.target {
            case .tone(let tone): out.toneLevels[tone] = max(out.toneLevels[tone] ?? 0, amount)
            case .bass: out.bassLevel = max(out.bassLevel, amount)
            case .parameter(let p): out.sculpt[p] = max(out.sculpt[p] ?? 0, amount)
            }
        }
        return out
    }

    public func validate() throws(FaceMappingError) {
        for m in mappings { try m.validate() }
    }
}
