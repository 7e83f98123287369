import Foundation
import LiveHost
import ProsperoJACK
import Testing

extension JACKClientTests {
    /// A JACK client as the live host's audio backend: its status snapshot names the backend, the
    /// server's rate and period, the client's four ports with their connections, the load and the
    /// counters; once stopped it says so. The session keeps the same snapshot and prints from it.
    /// A connect returns once the server has reported the connection made.
    @Test(.enabled(if: Peers.runnable("jackd")))
    func theClientsAudioStatusDescribesItAndItsConnections() throws {
        let server = try JACKTestServer(sampleRate: 44_100, period: 128)
        let client = try JACKClient(configuration: server.configuration)
        let sink = try JACKClient(configuration: server.configuration(client: "sink"))
        try client.activate(handler: SineHandler(leftFrequency: 440, rightFrequency: 440, peakDBFS: -20))
        try sink.activate(handler: ScriptedMIDIHandler())
        // jackd reports the connection made (the connect waits for that notice; PipeWire's JACK case is in
        // handsBothReachTheSinkAndASecondClientAndStopEndsTheNote); a second connect finds it made.
        #expect(try client.connect(client.ports.midiOutput, to: sink.ports.midiInput, confirmation: generousWait))
        #expect(try client.connect(client.ports.midiOutput, to: sink.ports.midiInput, confirmation: .zero))
        try waitUntil("some periods") { client.statistics.periods > 10 }
        let backend: any LiveAudioBackend = client
        let status = backend.audioStatus
        #expect(status.backend == .jack)
        #expect(status.clientName == client.name)
        #expect(status.serverName == server.name)
        #expect(status.sampleRate == 44_100)
        #expect(status.periodFrames == 128)
        #expect(!status.isRealtime)
        #expect(status.isRunning)
        #expect(status.cpuLoad != nil)
        #expect(status.periods > 10)
        #expect(status.ports.map(\.name) == [client.ports.leftOutput, client.ports.rightOutput, client.ports.midiOutput, client.ports.midiInput])
        #expect(status.ports.map(\.kind) == [.audio, .audio, .midi, .midi])
        #expect(status.ports.map(\.isInput) == [false, false, false, true])
        #expect(status.ports[2].connections == [sink.ports.midiInput])
        #expect(status.setupLines().contains("  \(client.ports.midiOutput) → \(sink.ports.midiInput)"))
        client.stop()
        #expect(!client.audioStatus.isRunning)
        sink.close()
        client.close()
    }

    /// `LiveSession` as a backend: the snapshot before, during and after a run, and the printed
    /// setup lines are the snapshot's.
    @Test(.enabled(if: Peers.runnable("jackd")))
    func theSessionPrintsItsSetupFromItsStatusSnapshot() throws {
        let server = try JACKTestServer()
        final class Lines: @unchecked Sendable {
            let lock = NSLock()
            var all: [String] = []
            func add(_ line: String) { lock.lock(); all.append(line); lock.unlock() }
        }
        let lines = Lines()
        let session = LiveSession(
            handler: SineHandler(leftFrequency: 440, rightFrequency: 440, peakDBFS: -20),
            options: LiveSessionOptions(client: server.configuration, audioConnection: .never, duration: .milliseconds(1_200),
                                       handlesSignals: false),
            log: { lines.add($0) })
        #expect(session.audioStatus.periodFrames == 0, "nothing known before the run")
        let outcome = try session.run()
        let status = session.audioStatus
        #expect(outcome.isClean)
        #expect(!status.isRunning)
        #expect(status.sampleRate == 48_000 && status.periodFrames == 256)
        // It played (about 225 periods in 1.2 s on a quiet machine; a busy one delays the server's periods).
        #expect(status.periods > 0)
        #expect(status.ports.count == 4)
        let printed = lines.all
        #expect(Array(printed.prefix(5)) == Array(status.setupLines().prefix(5)), "\(printed)")
        #expect(printed.last?.hasSuffix(status.countersLine) == true, "\(printed.last ?? "")")
    }
}
