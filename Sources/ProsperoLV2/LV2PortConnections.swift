/// The buffers a host connected, by port index, and the last value seen on every control input.
///
/// Fixed size from instantiation: connecting and reading never allocate.
public final class LV2PortConnections {
    public let count: Int
    let pointers: UnsafeMutableBufferPointer<UnsafeMutableRawPointer?>

    init(count: Int) {
        self.count = count
        pointers = .allocate(capacity: count)
        pointers.initialize(repeating: nil)
    }

    deinit { pointers.deallocate() }

    @inline(__always)
    func connect(_ port: Int, to data: UnsafeMutableRawPointer?) {
        guard port >= 0 && port < count else { return }
        pointers[port] = data
    }

    /// The buffer connected to `port`, or nil.
    @inline(__always)
    public func raw(_ port: Int) -> UnsafeMutableRawPointer? { pointers[port] }

    /// The audio or control buffer at `port` as floats, or nil.
    @inline(__always)
    public func floats(_ port: Int) -> UnsafeMutablePointer<Float>? {
        pointers[port]?.assumingMemoryBound(to: Float.self)
    }
}
