/// Several datagram sources as one (the studio's UDP senders and its pages' cameras), so that one
/// ``LiveHost`` reads them all. `localAddress` is the first source's.
public final class MergedDatagramSource: DatagramSource, @unchecked Sendable {
    public let sources: [any DatagramSource]

    /// - Parameter sources: at least one.
    public init(_ sources: [any DatagramSource]) {
        precondition(!sources.isEmpty, "MergedDatagramSource needs a source")
        self.sources = sources
    }

    public var localAddress: String { sources[0].localAddress }

    /// Starts every source; when one cannot start, those started are closed again and the error is thrown.
    public func start(deliver: @escaping @Sendable (Datagram) -> Void) throws {
        var started: [any DatagramSource] = []
        do {
            for source in sources {
                try source.start(deliver: deliver)
                started.append(source)
            }
        } catch {
            for source in started { source.close() }
            throw error
        }
    }

    public func close() {
        for source in sources { source.close() }
    }
}
