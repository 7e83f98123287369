/// The transport of an incoming MIDI clock as a follower last heard it: the message and a count that
/// grows by one with each transport message, so a reader that compares counts sees every change of
/// state even when it looks less often than messages come (only the latest state counts for a slave).
public struct LiveClockTransport: Sendable, Hashable {
    public enum Message: UInt8, Sendable, Hashable {
        /// 0xFA: play from the top.
        case start = 1
        /// 0xFC: stop where it is.
        case stop = 2
        /// 0xFB: resume from where it stopped.
        case `continue` = 3
    }

    public var message: Message
    /// Transport messages received so far (1 for the first).
    public var count: Int

    public init(message: Message, count: Int) {
        self.message = message
        self.count = count
    }
}
