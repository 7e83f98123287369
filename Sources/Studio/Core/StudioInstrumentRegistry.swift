/// The instruments the studio offers, in Home's order: each an id and a factory called once at start.
/// Only registered instruments appear on Home (no placeholders). Instrument files add themselves in
/// ``StudioInstrumentRegistry/standard`` (one line each), or a test builds its own registry.
public struct StudioInstrumentRegistry {
    public struct Entry {
        public var id: String
        public var make: () throws -> any StudioInstrument
        public init(id: String, make: @escaping () throws -> any StudioInstrument) {
            self.id = id
            self.make = make
        }
    }

    public private(set) var entries: [Entry] = []

    public init(_ entries: [Entry] = []) { self.entries = entries }

    /// Adds `make` under `T.id`; a second registration of the same id replaces the first.
    public mutating func register<T: StudioInstrument>(_ type: T.Type, make: @escaping () throws -> T) {
        entries.removeAll { $0.id == T.id }
        entries.append(Entry(id: T.id, make: { try make() }))
    }

    public var ids: [String] { entries.map(\.id) }
}
