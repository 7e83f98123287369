import Enobarbus

/// A game as a state machine: touch frames and time in, actions out. No UI, no audio thread.
///
/// The clock is injected: every call carries its time (seconds on the session clock, which in a
/// session is the audio clock), so a model never reads a wall clock and a script replays exactly.
/// Models take the live path's `TrackingFrame`s (`.touch` and `.ended(.touch(slot))`); other frames
/// are ignored. Only one finger plays: the first one down (the seed's single `DragGesture`); others
/// are ignored until it lifts.
public protocol GameModel {
    /// The game starts (the view appears) at `time`.
    mutating func start(at time: Double) -> [GameAction]
    /// A touch frame arrives (its `timestamp` is the time).
    mutating func handle(_ frame: TrackingFrame) -> [GameAction]
    /// Time passes to `time`; `musicPosition` is the background music's position in its loop (seconds).
    mutating func advance(to time: Double, musicPosition: Double) -> [GameAction]
    /// The player leaves (the view disappears) at `time`: the audio fades out.
    mutating func leave(at time: Double) -> [GameAction]
    /// Whether the home button shows (after 10 s without touch).
    var showsHomeButton: Bool { get }
}
