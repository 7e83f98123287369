/// Wekinator's `/wek/outputs` (M numbers, usually 0…1) as a control source, protocols.md §1.7.
///
/// Wekinator sends to localhost:12000 by default. The outputs are not a face, hand or touch: they are
/// kept as `outputs` (the latest vector, with the time it arrived) for a mapping to read, and each
/// accepted message bumps `sequence` so a reader can tell a fresh vector from a repeated one.
public struct WekinatorOutputAdapter: Sendable {
    /// Most outputs a message may carry (Wekinator projects rarely use more than a few dozen).
    public static let maximumOutputs = 256
    public private(set) var outputs: [Float] = []
    public private(set) var receivedAt: Double = 0
    public private(set) var sequence = 0

    public init() {}

    public mutating func handle(_ message: OSCMessage, into frame: inout FrameAssembly) -> OSCAdapterResult? {
        guard message.address == "/wek/outputs" else { return nil }
        let a = message.arguments
        guard !a.isEmpty, a.count <= Self.maximumOutputs else {
            return .rejected("wek/outputs needs 1…\(Self.maximumOutputs) numbers, got \(a.count)")
        }
        var values: [Float] = []
        values.reserveCapacity(a.count)
        for (k, arg) in a.enumerated() {
            guard let v = arg.floatValue, v.isFinite else { return .rejected("wek/outputs value \(k) is not a number") }
            values.append(v)
        }
        outputs = values
        receivedAt = frame.time
        sequence += 1
        return .accepted
    }
}
