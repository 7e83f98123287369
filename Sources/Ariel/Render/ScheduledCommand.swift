/// An engine command at an absolute frame of an offline render.
public struct ScheduledCommand<Command: Sendable>: Sendable {
    /// Frames from the start of the render, ≥ 0.
    public var frame: Int64
    public var command: Command

    public init(frame: Int64, command: Command) {
        self.frame = frame
        self.command = command
    }

    /// A command at `seconds` into the render, rounded to the nearest frame.
    public init(seconds: Double, sampleRate: Double, command: Command) {
        self.frame = Int64(max(0, (seconds * sampleRate).rounded()))
        self.command = command
    }
}
