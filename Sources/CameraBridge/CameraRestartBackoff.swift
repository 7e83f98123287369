/// When a camera child that died starts again (the tracking bridge, ``CameraBridgeProcess``, and the studio's own
/// camera, ``CameraDeviceProcess``): 0.5, 1, 2, 4, then every 8 s after deaths in a row, back to 0.5 s once a run
/// lasted ``steadyRun``. Times are the caller's (seconds on one monotonic clock), so its rule needs no clock.
package struct CameraRestartBackoff: Sendable, Equatable {
    /// Seconds the next start waits after the n-th death in a row (the last repeats).
    package static let waits: [Double] = [0.5, 1, 2, 4, 8]
    /// A run this long (seconds) resets the backoff.
    package static let steadyRun = 30.0

    /// Deaths in a row so far (a steady run ends the row).
    package private(set) var deaths = 0

    package init() {}

    /// A child started at `startedAt` died at `now`: the seconds to wait before the next start.
    package mutating func wait(startedAt: Double, diedAt now: Double) -> Double {
        if now - startedAt >= Self.steadyRun { deaths = 0 }
        let wait = Self.waits[min(deaths, Self.waits.count - 1)]
        deaths += 1
        return wait
    }
}
