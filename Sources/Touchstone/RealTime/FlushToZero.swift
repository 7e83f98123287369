import CTouchstoneFTZ

/// Flush-to-zero / denormals-are-zero for the calling thread.
///
/// Denormal floats (magnitudes below 1.18e-38) are 10–100× slower on most CPUs;
/// decaying filter and reverb tails reach them in silence and spike the CPU.
/// With flush-to-zero on, denormal results and inputs are treated as 0.
///
/// The control register is per thread, so enable it on the audio thread at the top
/// of every callback and restore it at the end (the host may share the thread):
///
///     let saved = FlushToZero.enable()
///     defer { FlushToZero.restore(saved) }
///     engine.render(...)
///
/// or `withFlushToZero { engine.render(...) }`. x86_64 sets MXCSR FTZ|DAZ,
/// arm64 sets FPCR.FZ; on other architectures this is a no-op and
/// `isSupported` is false. Real-time safe: two register accesses, no allocation.
public enum FlushToZero {
    /// The thread's floating-point control word before `enable()`.
    public struct SavedState: Sendable, Hashable {
        @usableFromInline let controlWord: UInt64
        @usableFromInline init(controlWord: UInt64) { self.controlWord = controlWord }
    }

    /// Whether this architecture has a flush-to-zero mode Touchstone can set.
    @inlinable public static var isSupported: Bool { ctouchstone_ftz_is_supported() != 0 }

    /// Whether flush-to-zero is currently on for the calling thread.
    @inlinable public static var isEnabled: Bool { ctouchstone_ftz_is_enabled() != 0 }

    /// Turns flush-to-zero (and denormals-are-zero where separate) on for the calling
    /// thread and returns the previous state for `restore(_:)`.
    @inlinable @discardableResult
    public static func enable() -> SavedState {
        SavedState(controlWord: ctouchstone_ftz_enable())
    }

    /// Puts the calling thread's control word back as it was before `enable()`.
    @inlinable
    public static func restore(_ state: SavedState) {
        ctouchstone_ftz_restore(state.controlWord)
    }
}

/// Runs `body` with flush-to-zero enabled on the calling thread, then restores the
/// previous floating-point mode (also when `body` throws).
@inlinable
public func withFlushToZero<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
    let saved = FlushToZero.enable()
    defer { FlushToZero.restore(saved) }
    return try body()
}
