/// Why a voice preset cannot be used: the field and the range it must lie in.
public struct VoicePresetError: Error, Equatable, Sendable, CustomStringConvertible {
    public var field: String
    public var value: Double
    public var expected: String

    public init(field: String, value: Double, expected: String) {
        self.field = field
        self.value = value
        self.expected = expected
    }

    public var description: String { "preset field '\(field)' is \(value), expected \(expected)" }
}

extension VoicePreset {
    /// Checks every field against its documented range; the first bad field is reported.
    public func validate() throws(VoicePresetError) {
        func check(_ field: String, _ value: Double, _ range: ClosedRange<Double>) throws(VoicePresetError) {
            guard value.isFinite, range.contains(value) else {
                throw VoicePresetError(field: field, value: value, expected: "\(range.lowerBound)…\(range.upperBound)")
            }
        }
        func ordered(_ low: String, _ a: Double, _ high: String, _ b: Double) throws(VoicePresetError) {
            guard a < b else { throw VoicePresetError(field: high, value: b, expected: "greater than \(low) (\(a))") }
        }
        try check("detuneCents", detuneCents, 0...50)
        try check("filterCutoffMin", filterCutoffMin, 20...20_000)
        try check("filterCutoffMax", filterCutoffMax, 20...20_000)
        try ordered("filterCutoffMin", filterCutoffMin, "filterCutoffMax", filterCutoffMax)
        try check("filterResonanceMin", filterResonanceMin, 0.5...20)
        try check("filterResonanceMax", filterResonanceMax, 0.5...20)
        try check("formantF1Min", formantF1Min, 100...1_500)
        try check("formantF1Max", formantF1Max, 100...1_500)
        try check("formantF2Min", formantF2Min, 400...4_000)
        try check("formantF2Max", formantF2Max, 400...4_000)
        try check("formantQ", formantQ, 0.5...30)
        try check("formantDryMix", formantDryMix, 0...1)
        try check("formantF1Mix", formantF1Mix, 0...1)
        try check("formantF2Mix", formantF2Mix, 0...1)
        try check("reverbSize", reverbSize, 0...1)
        try check("reverbDecay", reverbDecay, 0.1...20)
        try check("reverbDamping", reverbDamping, 0...1)
        try check("reverbMix", reverbMix, 0...1)
        try check("subLevel", subLevel, 0...1)
        try check("bassLevel", bassLevel, 0...1)
        try check("droneLevel", droneLevel, 0...1)
        try check("brightnessCap", brightnessCap, 0...1)
        try check("breathRate", breathRate, 0.01...2)
        try check("breathDepth", breathDepth, 0...0.5)
    }
}
