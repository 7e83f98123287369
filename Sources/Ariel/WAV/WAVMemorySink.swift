/// A `WAVSink` that keeps the file in memory (for short renders, tests and tools).
public struct WAVMemorySink: WAVSink, Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func write(_ bytes: UnsafeRawBufferPointer) {
        self.bytes.append(contentsOf: bytes)
    }

    public mutating func patch(at offset: UInt64, with bytes: [UInt8]) {
        let start = Int(offset)
        precondition(start + bytes.count <= self.bytes.count, "a patch stays inside what was written")
        self.bytes.replaceSubrange(start..<start + bytes.count, with: bytes)
    }
}
