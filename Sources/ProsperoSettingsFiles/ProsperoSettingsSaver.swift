import InstrumentSettings
import Synchronization

/// Saves the studio's settings a moment after they stop changing: a slider drag writes the file
/// once, not at every step. `offer` the current settings at each tick (any thread); the file is
/// written when they differ from the last saved and have not changed for `delay` seconds.
public final class ProsperoSettingsSaver: Sendable {
    public let file: ProsperoSettingsFile
    /// Seconds of no change before a write.
    public let delay: Double
    private struct State {
        var saved: ProsperoSettings
        var pending: ProsperoSettings?
        var changedAt = 0.0
    }
    private let state: Mutex<State>

    /// - Parameter saved: what the file holds now (nothing is written until the settings differ).
    public init(file: ProsperoSettingsFile, saved: ProsperoSettings, delay: Double = 1.0) {
        self.file = file
        self.delay = delay
        state = Mutex(State(saved: saved))
    }

    /// The latest settings at `now` (seconds, monotonic); returns an error when a due write failed.
    @discardableResult
    public func offer(_ settings: ProsperoSettings, now: Double) -> ProsperoSettingsFileError? {
        let due: ProsperoSettings? = state.withLock { s in
            if settings != (s.pending ?? s.saved) {
                s.pending = settings
                s.changedAt = now
                return nil
            }
            guard let pending = s.pending, now - s.changedAt >= delay else { return nil }
            s.pending = nil
            s.saved = pending
            return pending
        }
        guard let due else { return nil }
        do { try file.save(due) } catch { return error }
        return nil
    }

    /// Writes any pending change now (at stop).
    @discardableResult
    public func flush() -> ProsperoSettingsFileError? {
        let due: ProsperoSettings? = state.withLock { s in
            defer { s.pending = nil }
            if let p = s.pending { s.saved = p }
            return s.pending
        }
        guard let due else { return nil }
        do { try file.save(due) } catch { return error }
        return nil
    }
}
