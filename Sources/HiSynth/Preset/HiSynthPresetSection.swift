/// The six colon-separated fields of a preset string, in wire order.
public enum HiSynthPresetSection: Int, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    case name = 0
    case oscillators = 1
    case envelope = 2
    case filters = 3
    case lfos = 4
    case effects = 5

    /// The section's name in error messages: the original's controller names.
    public var description: String {
        switch self {
        case .name: "name"
        case .oscillators: "OSC"
        case .envelope: "ENV"
        case .filters: "FILTER"
        case .lfos: "LFO"
        case .effects: "AFX"
        }
    }
}
