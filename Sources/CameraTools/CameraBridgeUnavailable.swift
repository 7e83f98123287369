/// The camera bridge cannot run here: `message` says why and what to do (it names scripts/camera-setup).
public struct CameraBridgeUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(message: String) { self.message = message }

    public var description: String { message }
}
