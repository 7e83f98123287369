/// Which page finger holds which of the router's touch slots (touch0…touch3).
///
/// Every open page may put fingers on its pad; a finger is named by its client and the id the page
/// gave it. A finger landing takes the lowest free slot, and a finger that finds none is ignored for
/// as long as it stays down (the seed's four touch slots; later fingers do not steal).
public struct HandsPadSlots: Sendable, Hashable {
    /// One finger on one page.
    public struct Finger: Sendable, Hashable {
        public var client: String
        public var id: Int
        public init(client: String, id: Int) {
            self.client = client
            self.id = id
        }
    }

    /// The finger holding each slot, nil where free.
    public private(set) var owners: [Finger?]

    public init(slotCount: Int = 4) {
        owners = Array(repeating: nil, count: slotCount)
    }

    /// The slot `finger` holds, nil when it holds none.
    public func slot(of finger: Finger) -> Int? { owners.firstIndex { $0 == finger } }

    /// Gives `finger` the lowest free slot not in `busy` (slots another input uses); its own slot
    /// when it already holds one; nil when every slot is taken.
    public mutating func claim(_ finger: Finger, avoiding busy: Set<Int> = []) -> Int? {
        if let held = slot(of: finger) { return held }
        guard let free = owners.indices.first(where: { owners[$0] == nil && !busy.contains($0) }) else { return nil }
        owners[free] = finger
        return free
    }

    /// Frees the slot `finger` holds and returns it.
    public mutating func release(_ finger: Finger) -> Int? {
        guard let held = slot(of: finger) else { return nil }
        owners[held] = nil
        return held
    }

    /// Frees every slot of `client`'s fingers and returns them, ascending.
    public mutating func releaseAll(of client: String) -> [Int] {
        let held = owners.indices.filter { owners[$0]?.client == client }
        for slot in held { owners[slot] = nil }
        return held
    }
}
