/// One declarative route from a face signal to a target, with its own normalisation.
///
/// The value is read from the signal (0…1), optionally folded to its distance from the centre
/// (`absFromCenter`: |v − 0.5|, so turning the head either way counts the same), then the window
/// `inputMin…inputMax` is stretched to 0…1 and clamped, then optionally inverted.
///
///     // Head turn sweeps the cutoff: 0 looking ahead, 1 at a quarter turn-range either side.
///     FaceMapping(.headYaw, to: .parameter(.cutoff), inputMin: 0, inputMax: 0.25, absFromCenter: true)
public struct FaceMapping: Hashable, Sendable, Codable {
    public var source: FaceSignal
    public var target: FaceTarget
    /// Start of the sensitive window in the (possibly folded) input, 0…1.
    public var inputMin: Double
    /// End of the sensitive window, greater than `inputMin`.
    public var inputMax: Double
    public var invert: Bool
    public var absFromCenter: Bool

    public init(
        _ source: FaceSignal, to target: FaceTarget, inputMin: Double = 0, inputMax: Double = 1,
        invert: Bool = false, absFromCenter: Bool = false
    ) {
        self.source = source
        self.target = target
        self.inputMin = inputMin
        self.inputMax = inputMax
        self.invert = invert
        self.absFromCenter = absFromCenter
    }

    /// Maps a raw signal value (0…1) to the target amount (0…1). Non-finite input maps to 0.
    public func amount(for value: Double) -> Double {
        guard value.isFinite else { return 0 }
        let v = absFromCenter ? abs(value - 0.5) : value
        let span = inputMax - inputMin
        let t = span > 0 ? (v - inputMin) / span : (v >= inputMax ? 1 : 0)
        let clamped = min(max(t, 0), 1)
        return invert ? 1 - clamped : clamped
    }

    /// Why a mapping is unusable.
    public func validate() throws(FaceMappingError) {
        guard inputMin.isFinite, inputMax.isFinite, (0...1).contains(inputMin), (0...1).contains(inputMax) else {
            throw .windowOutOfRange(source: source.description, min: inputMin, max: inputMax)
        }
        guard inputMin < inputMax else { throw .emptyWindow(source: source.description, min: inputMin, max: inputMax) }
    }
}

/// Why a face mapping is unusable.
public enum FaceMappingError: Error, Equatable, Sendable, CustomStringConvertible {
    case windowOutOfRange(source: String, min: Double, max: Double)
    case emptyWindow(source: String, min: Double, max: Double)

    public var description: String {
        switch self {
        case .windowOutOfRange(let s, let lo, let hi): return "mapping from \(s): inputMin \(lo) and inputMax \(hi) must lie in 0…1"
        case .emptyWindow(let s, let lo, let hi): return "mapping from \(s): inputMin \(lo) must be below inputMax \(hi)"
        }
    }
}
