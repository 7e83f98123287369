import Foundation
import Enobarbus
import Hecate
import Horatio
import InstrumentSettings

/// One of the seed's face meters on Hecate's HUD: what it reads off the face, its colour, and the
/// mappings it shows (their windows and what they drive), taken from the instrument's mapping set
/// so that the HUD can never disagree with what the face actually plays.
///
/// VOICING: JAW (ember), BROW (violet), CHEEK (cyan), PUCKER (green);
/// SCULPTING: TURN (violet), NOD (cyan), TILT (orange), SMILE (green, "Bright").
public struct HecateHUDMeter: Sendable, Hashable {
    public enum Group: String, Sendable { case voicing, sculpting }

    /// Stable id used in frames and `data-testid`s ("jaw", "turn", …).
    public var id: String
    public var group: Group
    /// Label as the seed prints it ("JAW", "SMILE").
    public var label: String
    /// Colour as "#RRGGBB" (the seed's design tokens).
    public var colour: String
    /// The face signal the meter shows.
    public var signal: FaceSignal
    /// Short name of what the meter's mappings drive, when the seed gives one ("Bright").
    public var caption: String?

    public init(_ id: String, _ group: Group, _ label: String, _ colour: String, _ signal: FaceSignal, caption: String? = nil) {
        self.id = id
        self.group = group
        self.label = label
        self.colour = colour
        self.signal = signal
        self.caption = caption
    }

    /// The seed's design tokens for the meters.
    public enum Colour {
        public static let ember = "#F25933"
        public static let violet = "#A633D9"
        public static let cyan = "#4DD9F2"
        public static let orange = "#F29933"
        public static let green = "#66D173"
    }

    /// The seed's eight meters in display order.
    public static let seed: [HecateHUDMeter] = [
        HecateHUDMeter("jaw", .voicing, "JAW", Colour.ember, .blendshape("jawOpen")),
        HecateHUDMeter("brow", .voicing, "BROW", Colour.violet, .blendshape("browInnerUp")),
        HecateHUDMeter("cheek", .voicing, "CHEEK", Colour.cyan, .blendshape("cheekPuff")),
        HecateHUDMeter("pucker", .voicing, "PUCKER", Colour.green, .blendshape("mouthPucker")),
        HecateHUDMeter("turn", .sculpting, "TURN", Colour.violet, .headYaw),
        HecateHUDMeter("nod", .sculpting, "NOD", Colour.cyan, .headPitch),
        HecateHUDMeter("tilt", .sculpting, "TILT", Colour.orange, .headRoll),
        HecateHUDMeter("smile", .sculpting, "SMILE", Colour.green, .smile, caption: "Bright"),
    ]

    /// The mappings of `set` this meter's signal feeds, in the set's order (voicing meters show the
    /// voicing targets, sculpting meters the sculpt targets; jaw open also drives F1, listed with it).
    public func mappings(in set: FaceMappingSet) -> [FaceMapping] {
        set.mappings.filter { $0.source == signal }
    }

    /// The meter's reading for one face: the raw 0…1 signal, and the largest amount (0…1) its
    /// mappings make of it (nil when the face lacks the signal).
    public func reading(_ face: FaceFrame, mappings set: FaceMappingSet) -> (value: Double, amount: Double)? {
        guard let value = HecatePerformance.value(of: signal, in: face) else { return nil }
        let amount = mappings(in: set).map { $0.amount(for: value) }.max() ?? 0
        return (value, amount)
    }

    /// Words for a mapping target, as the mapping guide says them.
    public static func describe(_ target: FaceTarget) -> String {
        switch target {
        case .tone(.root): return "root"
        case .tone(.third): return "3rd"
        case .tone(.fifth): return "5th"
        case .tone(.seventh): return "7th"
        case .tone(.ninth): return "9th"
        case .tone(.octave): return "octave"
        case .bass: return "bass note"
        case .parameter(.cutoff): return "filter cutoff"
        case .parameter(.resonance): return "filter resonance"
        case .parameter(.formantF1): return "formant F1 (vowel openness)"
        case .parameter(.formantF2): return "formant F2 (vowel shape)"
        case .parameter(.brightness): return "brightness (octave shimmer)"
        }
    }

    /// "0–0.25 from centre" or "0.5–1": the mapping's sensitive window as the seed writes it.
    public static func describeWindow(_ m: FaceMapping) -> String {
        func n(_ x: Double) -> String {
            var s = String(format: "%.2f", x)
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
            return s
        }
        return "\(n(m.inputMin))–\(n(m.inputMax))" + (m.absFromCenter ? " from centre" : "") + (m.invert ? ", inverted" : "")
    }

    /// The description the page shows: label, colour, group and each mapping's window and target.
    public func json(in set: FaceMappingSet) -> StudioValue {
        let routes: [StudioValue] = mappings(in: set).map { m in
            .object([
                "min": .number(m.inputMin), "max": .number(m.inputMax), "absFromCenter": .bool(m.absFromCenter),
                "invert": .bool(m.invert), "range": .string(Self.describeWindow(m)),
                "target": .string(m.target.description), "drives": .string(Self.describe(m.target)),
            ])
        }
        var object: [String: StudioValue] = [
            "id": .string(id), "group": .string(group.rawValue), "label": .string(label), "colour": .string(colour),
            "signal": .string(signal.description), "mappings": .array(routes),
        ]
        if let caption { object["caption"] = .string(caption) }
        return .object(object)
    }
}
