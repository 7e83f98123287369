import Ariel

/// A MIDI message the router produced, with the time (seconds, the input's clock) of the input
/// that caused it.
public struct RoutedMIDIMessage: Sendable, Hashable, CustomStringConvertible {
    public var time: Double
    public var message: MIDIMessage

    public init(time: Double, _ message: MIDIMessage) {
        self.time = time
        self.message = message
    }

    public var description: String {
        "\(time): " + (message.shortMessage.map { $0.description } ?? "\(message)")
    }
}
