import InstrumentSettings
import Studio
import Synchronization
import Testing

/// The session as clients see it, with the test tone as the instrument and outboxes that record.
@Suite("Studio session")
struct StudioSessionTests {
    final class Outbox: @unchecked Sendable {
        let messages = Mutex<[StudioOutgoing]>([])
        var send: StudioSession.Outbox { { m in self.messages.withLock { $0.append(m) } } }
        /// JSON messages received so far, parsed; clears the list.
        func take() -> [[String: StudioValue]] {
            messages.withLock { list in
                defer { list.removeAll() }
                return list.compactMap { if case .text(let t) = $0 { return try? StudioValue(json: t).object } else { return nil } }
            }
        }
        func binaries() -> [[UInt8]] {
            messages.withLock { list in list.compactMap { if case .binary(let b) = $0 { return b } else { return nil } } }
        }
    }

    func makeSession(_ options: StudioSessionOptions = .init()) -> StudioSession {
        StudioSession(instruments: [StudioToneInstrument()], options: options)
    }

    func send(_ session: StudioSession, _ connection: Int, _ text: String, at now: Double = 0) {
        session.receive(Array(text.utf8), from: connection, now: now)
    }

    /// Connects and says hello; the connection, the client id of the welcome, and what followed the welcome.
    @discardableResult
    func join(_ session: StudioSession, _ outbox: Outbox, client: String? = nil, at now: Double = 0) -> (Int, String, [[String: StudioValue]]) {
        let c = session.connect(outbox: outbox.send)
        let id = client.map { "\"\($0)\"" } ?? "null"
        send(session, c, #"{"type":"hello","client":\#(id)}"#, at: now)
        let messages = outbox.take()
        let welcome = messages.firstIndex { $0["type"] == "welcome" }
        return (c, welcome.map { messages[$0]["client"]?.string ?? "" } ?? "", welcome.map { Array(messages[($0 + 1)...]) } ?? [])
    }

    @Test("hello → welcome with the instruments and the active one, then the whole state")
    func helloWelcome() {
        let session = makeSession()
        let out = Outbox()
        let c = session.connect(outbox: out.send)
        send(session, c, #"{"type":"hello","client":null,"subscribe":["state"]}"#)
        let messages = out.take()
        #expect(messages.count == 2)
        #expect(messages[0]["type"] == "welcome" && messages[0]["v"] == 1)
        #expect(messages[0]["instrument"] == "tone")
        #expect(messages[0]["instruments"] == [["id": "tone", "name": "Test tone"]])
        #expect(messages[1]["type"] == "state" && messages[1]["state"]?.object?["frequency"] == 1000)
    }

    @Test("every client sees every change; the refused one gets an error, alone")
    func broadcast() {
        let session = makeSession()
        let a = Outbox(), b = Outbox()
        let (ca, _, _) = join(session, a)
        join(session, b)
        _ = a.take(); _ = b.take()
        send(session, ca, #"{"type":"set","path":"tone.frequency","value":440}"#)
        for out in [a, b] {
            let m = out.take()
            #expect(m.count == 1)
            #expect(m.first?["type"] == "changed" && m.first?["changes"] == ["frequency": 440])
        }
        send(session, ca, #"{"type":"set","path":"tone.frequency","value":5}"#)
        let error = a.take()
        #expect(error.first?["type"] == "error" && error.first?["code"] == "out_of_range" && error.first?["ref"] == "tone.frequency")
        #expect(b.take().isEmpty)
        send(session, ca, #"{"type":"set","path":"tone.nothing","value":1}"#)
        #expect(a.take().first?["code"] == "unknown_control")
        send(session, ca, #"{"type":"set","path":"hecate.key","value":"D"}"#)
        #expect(a.take().first?["code"] == "unknown_instrument")
        #expect(session.statistics.refused == 3)
    }

    @Test("before hello only ping is answered; malformed messages are counted and answered")
    func malformed() {
        let session = makeSession()
        let out = Outbox()
        let c = session.connect(outbox: out.send)
        send(session, c, #"{"type":"set","path":"tone.on","value":true}"#)
        #expect(out.take().first?["code"] == "not_ready")
        send(session, c, #"{"type":"ping","t":5}"#, at: 2)
        let pong = out.take().first
        #expect(pong?["type"] == "pong" && pong?["t"] == 5 && pong?["server"] == 2000)
        for bad in ["{", "[]", #"{"type":"x"}"#, String(repeating: "x", count: 20_000)] { send(session, c, bad) }
        let errors = out.take().compactMap { $0["code"]?.string }
        #expect(errors == ["malformed_json", "bad_message", "unknown_type", "too_large"])
        #expect(session.statistics.malformed == 4)
    }

    @Test("a lost client resumes within 60 s and gets the changes it missed, in order")
    func resumeReplay() {
        let session = makeSession()
        let a = Outbox(), b = Outbox()
        let (ca, idA, _) = join(session, a)
        let (cb, _, _) = join(session, b)
        session.disconnect(ca, now: 1)
        send(session, cb, #"{"type":"set","path":"tone.frequency","value":220}"#, at: 2)
        send(session, cb, #"{"type":"set","path":"tone.level","value":-30}"#, at: 3)
        _ = a.take()
        session.expire(now: 50)
        let (_, resumed, replay) = join(session, a, client: idA, at: 55)
        #expect(resumed == idA)
        // The replay follows the welcome, in order.
        #expect(replay.map { $0["changes"] } == [["frequency": 220], ["level": -30]])
        #expect(session.statistics.resumed == 1)
    }

    @Test("past 60 s the client is forgotten and a hello with its id starts a new one")
    func expiry() {
        let session = makeSession()
        let a = Outbox()
        let (ca, idA, _) = join(session, a)
        session.disconnect(ca, now: 10)
        session.expire(now: 69.9)
        #expect(session.clientCount == 1)
        session.expire(now: 70)
        #expect(session.clientCount == 0 && session.statistics.expired == 1)
        let (_, id, _) = join(session, a, client: idA, at: 71)
        #expect(id != idA && !id.isEmpty)
    }

    @Test("more missed changes than kept → the whole state instead of a replay")
    func overflow() {
        var options = StudioSessionOptions()
        options.maximumPending = 3
        let session = makeSession(options)
        let a = Outbox(), b = Outbox()
        let (ca, idA, _) = join(session, a)
        let (cb, _, _) = join(session, b)
        session.disconnect(ca, now: 0)
        for f in [100, 200, 300, 400, 500] { send(session, cb, #"{"type":"set","path":"tone.frequency","value":\#(f)}"#) }
        _ = a.take()
        let (_, _, after) = join(session, a, client: idA, at: 1)
        #expect(after.count == 1 && after[0]["type"] == "state" && after[0]["state"]?.object?["frequency"] == 500)
    }

    @Test("a socket cut with messages it never got → the whole state on resume, not a replay with holes")
    func cutWithMissedMessages() {
        let session = makeSession()
        let a = Outbox(), b = Outbox()
        let (ca, idA, _) = join(session, a)
        let (cb, _, _) = join(session, b)
        session.disconnect(ca, now: 0, missedMessages: true)
        send(session, cb, #"{"type":"set","path":"tone.frequency","value":700}"#)
        _ = a.take()
        let (_, _, after) = join(session, a, client: idA, at: 1)
        #expect(after.count == 1 && after[0]["type"] == "state" && after[0]["state"]?.object?["frequency"] == 700)
    }

    @Test("a lost socket ends its touches: the tone stops and everyone hears of it")
    func lostSocketEndsTouches() {
        let session = makeSession()
        let a = Outbox(), b = Outbox()
        let (ca, _, _) = join(session, a)
        join(session, b)
        send(session, ca, #"{"type":"touch","id":0,"phase":"down","x":0.5,"y":0.5}"#)
        #expect(b.take().contains { $0["changes"] == ["touching": true] })
        session.disconnect(ca, now: 1)
        #expect(b.take().contains { $0["changes"] == ["touching": false] })
        #expect(session.withInstrument("tone") { $0.stateJSON()["touching"] } == .bool(false))
    }

    @Test("over the rate limit: dropped, counted, one error a second")
    func rateLimit() {
        var options = StudioSessionOptions()
        options.rate = 10
        options.burst = 5
        let session = makeSession(options)
        let a = Outbox()
        let (ca, _, _) = join(session, a)
        _ = a.take()
        for _ in 0..<20 { send(session, ca, #"{"type":"ping","t":1}"#, at: 1) }
        let messages = a.take()
        // The bucket starts full (5) and nothing refills within the same instant: 5 pongs, 15 dropped, 1 error.
        #expect(messages.filter { $0["type"] == "pong" }.count == 5)
        #expect(messages.filter { $0["code"] == "rate_limited" }.count == 1)
        #expect(session.statistics.rateLimited == 15)
    }

    @Test("before hello a socket spends a bucket of its own: a flood of pings and clocks is limited as after hello")
    func rateLimitBeforeHello() {
        var options = StudioSessionOptions()
        options.rate = 10
        options.burst = 5
        let session = makeSession(options)
        let a = Outbox(), b = Outbox()
        let ca = session.connect(outbox: a.send)
        let cb = session.connect(outbox: b.send)
        for _ in 0..<20 { send(session, ca, #"{"type":"ping","t":1}"#, at: 1) }
        let flooded = a.take()
        #expect(flooded.filter { $0["type"] == "pong" }.count == 5)
        #expect(flooded.filter { $0["code"] == "rate_limited" }.count == 1)
        // Another stranger's bucket is its own; a second later the first one's has refilled by the rate.
        send(session, cb, #"{"type":"ping","t":1}"#, at: 1)
        #expect(b.take().filter { $0["type"] == "pong" }.count == 1)
        for _ in 0..<20 { send(session, ca, #"{"type":"ping","t":1}"#, at: 2) }
        #expect(a.take().filter { $0["type"] == "pong" }.count == 5)
        // Its hello was spent from that bucket too; once welcomed, the client's own bucket (full) takes over.
        send(session, ca, #"{"type":"hello"}"#, at: 4)
        #expect(a.take().first?["type"] == "welcome")
        for _ in 0..<20 { send(session, ca, #"{"type":"ping","t":1}"#, at: 4) }
        #expect(a.take().filter { $0["type"] == "pong" }.count == 5)
    }

    @Test("no one peer fills the studio: at most maximumClientsPerPeer connected clients each; a full studio gives the place of the retained client that left first")
    func clientCapPerPeer() {
        var options = StudioSessionOptions()
        options.maximumClients = 4
        options.maximumClientsPerPeer = 2
        let session = makeSession(options)
        func hello(_ peer: String, at now: Double = 0) -> (Int, Outbox, [[String: StudioValue]]) {
            let box = Outbox()
            let c = session.connect(outbox: box.send, peer: peer)
            send(session, c, #"{"type":"hello"}"#, at: now)
            return (c, box, box.take())
        }
        let first = hello("10.0.0.1"), second = hello("10.0.0.1")
        #expect(first.2.first?["type"] == "welcome" && second.2.first?["type"] == "welcome")
        let third = hello("10.0.0.1")
        #expect(third.2.first?["code"] == "too_many_clients" && third.2.first?["message"]?.string?.contains("this address") == true, "\(third.2)")
        // Another peer still gets in; one that leaves frees its place for its own peer.
        #expect(hello("10.0.0.2").2.first?["type"] == "welcome")
        session.disconnect(first.0, now: 1)
        #expect(hello("10.0.0.1", at: 1).2.first?["type"] == "welcome")
        // Four clients now, one of them retained (the first): a fifth takes the retained one's place.
        #expect(hello("10.0.0.3", at: 2).2.first?["type"] == "welcome")
        // All four connected: a sixth is refused.
        #expect(hello("10.0.0.4", at: 3).2.first?["code"] == "too_many_clients")
    }

    @Test("select: unknown ids are refused; binary frames reach subscribers only")
    func selectAndBinary() {
        let session = makeSession()
        let a = Outbox(), b = Outbox()
        let (ca, _, _) = join(session, a)
        let cb = session.connect(outbox: b.send)
        send(session, cb, #"{"type":"hello","subscribe":["state"]}"#)
        send(session, ca, #"{"type":"select","instrument":"nope"}"#)
        #expect(a.take().last?["code"] == "unknown_instrument")
        send(session, ca, #"{"type":"select","instrument":"tone"}"#)
        #expect(b.take().last?["type"] == "state")
        session.sendBinary(StudioBinaryFrame.encode(.meters, [0.5, 0.25, 0.1, 0.05]), to: .meters)
        #expect(a.binaries().count == 1 && b.binaries().isEmpty)
        let decoded = StudioBinaryFrame.decodeFloats(a.binaries()[0])
        #expect(decoded?.0 == .meters && decoded?.1 == [0.5, 0.25, 0.1, 0.05])
        // Kind byte, then 0.5 as little-endian IEEE 754 single: 00 00 00 3F.
        #expect(a.binaries()[0].count == 17 && Array(a.binaries()[0][0...4]) == [0x01, 0x00, 0x00, 0x00, 0x3F])
    }
}
