import Synchronization

/// The connections the server has reported made (`jack_set_port_connect_callback`), newest last, so that
/// a connect can wait until its link carries data.
///
/// `jack_connect` returning is not enough: PipeWire's JACK returns once the link object exists, and the
/// link completes (its buffers are set up on both sides) only when the peer has answered; a message sent
/// before that is lost. With a peer held back for 0.4 s, the first nine periods' MIDI never arrived, and
/// the connect notification came in the period whose MIDI first did. JACK 2 makes the connection inside
/// `jack_connect` and notifies just after. Either way the notification means "data flows from now".
///
/// Written on libjack's notification thread (never the process thread), read on the control thread.
/// Holds the last ``capacity`` notices: a caller waits for its own within a few notices.
final class JACKConnectNotices: Sendable {
    /// One reported connection: the two ports by JACK's port ids (`jack_port_by_id`), and its place
    /// in the order of notices.
    struct Notice {
        var sequence: Int
        var source: UInt32
        var destination: UInt32
    }

    /// Notices kept; older ones are forgotten.
    static let capacity = 64

    private let notices = Mutex<[Notice]>([])

    /// How many connections have been reported so far; a waiter takes this before it connects.
    var sequence: Int { notices.withLock { $0.last?.sequence ?? 0 } }

    /// Records that the server connected port `a` to port `b` (called from the connect callback).
    func connected(_ a: UInt32, _ b: UInt32) {
        notices.withLock { list in
            let next = (list.last?.sequence ?? 0) + 1
            if list.count == Self.capacity { list.removeFirst() }
            list.append(Notice(sequence: next, source: a, destination: b))
        }
    }

    /// The notices after `sequence`, oldest first.
    func notices(after sequence: Int) -> [Notice] {
        notices.withLock { list in list.filter { $0.sequence > sequence } }
    }
}
