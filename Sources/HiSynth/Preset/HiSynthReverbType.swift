/// The reverb's room family, with the preset strings' wire code as its raw value.
///
/// Room sizes 1/2/3 are small, medium and large rooms; hall sizes 1/2/3 are medium hall,
/// large hall and large hall 2 (spec §1). `plate` exists on the wire but not in the original's UI.
public enum HiSynthReverbType: Int8, CaseIterable, Sendable, Hashable {
    case plate = 0
    case room = 1
    case hall = 2

    /// The name used in preset JSON.
    public var name: String {
        switch self {
        case .plate: "plate"
        case .room: "room"
        case .hall: "hall"
        }
    }

    /// The reverb type called `name` (exact, lower case as in preset JSON), or nil.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }
}
