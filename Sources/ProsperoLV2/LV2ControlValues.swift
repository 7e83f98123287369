/// The last value `run` copied from each control input (in control order, after the standard ports),
/// so `run` sees what moved and `save` reads the values without touching the host's buffers.
public final class LV2ControlValues {
    public let controls: [LV2Control]
    let values: UnsafeMutableBufferPointer<Float>

    public init(_ controls: [LV2Control]) {
        self.controls = controls
        values = .allocate(capacity: max(1, controls.count))
        values.initialize(repeating: 0)
        for (i, c) in controls.enumerated() { values[i] = c.defaultValue }
    }

    deinit { values.deallocate() }

    public var count: Int { controls.count }

    @inline(__always)
    public subscript(index: Int) -> Float {
        get { values[index] }
        set { values[index] = newValue }
    }

    /// Copies every connected control from `ports` (starting at port `first`) and calls `changed(i, value)`
    /// for each one that differs from the last copy (bit for bit, so −0 and 0 differ). Allocation-free.
    @inline(__always)
    public func update(from ports: LV2PortConnections, first: Int, _ changed: (Int, Float) -> Void) {
        for i in 0..<controls.count {
            guard let p = ports.floats(first + i) else { continue }
            let v = p.pointee
            if v.bitPattern != values[i].bitPattern {
                values[i] = v
                changed(i, v)
            }
        }
    }

    /// A copy of every value (for `save` on another thread).
    public func snapshot() -> [Float] { Array(values.prefix(controls.count)) }
}
