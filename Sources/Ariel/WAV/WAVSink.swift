/// Where `WAVStreamWriter` puts a file's bytes: appended in order, then the header patched once the
/// length is known. Ariel opens no files: the edge (the CLI) implements this over a file handle,
/// tests and tools over memory (`WAVMemorySink`).
public protocol WAVSink {
    /// Appends `bytes` at the end of what was written.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Overwrites `bytes` at `offset` bytes from the start, inside what was already written (the
    /// header), and leaves the write position at the end.
    mutating func patch(at offset: UInt64, with bytes: [UInt8]) throws
}
