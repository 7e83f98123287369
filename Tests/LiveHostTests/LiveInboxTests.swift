import LiveHost
import ProsperoTestSupport
import Testing

@Suite(.ownThread) struct LiveInboxTests {
    static func datagram(_ n: Int) -> Datagram {
        Datagram(bytes: [UInt8(n)], sender: DatagramSender(address: "127.0.0.1", port: 1), arrival: Double(n))
    }

    @Test func whenFullTheOldestAreDroppedAndCounted() {
        let inbox = LiveInbox(capacity: 4)
        for n in 0..<10 { inbox.push(Self.datagram(n)) }
        #expect(inbox.take(waitingUpTo: 0).map(\.bytes) == [[6], [7], [8], [9]])
        #expect(inbox.droppedCount == 6)
        #expect(inbox.take(waitingUpTo: 0).isEmpty)
        inbox.push(Self.datagram(42))
        #expect(inbox.take(waitingUpTo: 0).map(\.arrival) == [42])
    }

    @Test func aWakeEndsTheWaitWithoutADatagram() {
        let inbox = LiveInbox(capacity: 4)
        inbox.wake()
        #expect(inbox.take(waitingUpTo: 30).isEmpty, "returns at once (a 30 s wait would hang the suite)")
    }

    @Test func aStopRequestWakesObserversOnceAndTheFirstReasonWins() {
        let stop = LiveStop()
        let inbox = LiveInbox()
        stop.onRequest { inbox.wake() }
        #expect(stop.request(.signal(15)))
        #expect(!stop.request(.durationElapsed))
        #expect(stop.reason == .signal(15))
        #expect(stop.wait(timeout: .seconds(30)) == .signal(15))
        #expect(inbox.take(waitingUpTo: 30).isEmpty)
        #expect(LiveStopReason.signal(15).description == "stopped by SIGTERM")
        #expect(LiveStopReason.signal(1).description == "stopped by SIGHUP")
        #expect(!LiveStopReason.failed("x").isClean)
    }
}
