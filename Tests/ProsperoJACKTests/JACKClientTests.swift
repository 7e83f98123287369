import Ariel
import Foundation
import Glibc
import ProsperoJACK
import Synchronization
import ProsperoTestSupport
import Testing

/// Against real JACK: `jackd -d dummy` (a unique server per test) and jackd2's example clients.
///
/// Every suite that starts a server is in here (nested ones too), so they all run one at a time: libjack
/// keeps per-process client state (its table of client semaphores is indexed by a client's number on its
/// server), and in-process clients of two servers at once collide there. A test run crashed inside libjack
/// when the learn test's clients and the allocation test's ran side by side on two servers.
@Suite(.serialized, .ownThread) struct JACKClientTests {
    /// Parses `jack_midi_dump -a` lines ("  22976: 90 3c 40 note on …").
    static func parseDump(_ text: String) -> [TimedMIDI] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let frame = Int(parts[0].trimmingCharacters(in: .whitespaces)) else { return nil }
            var bytes: [UInt8] = []
            for token in parts[1].split(separator: " ") {
                guard token.count == 2, let byte = UInt8(token, radix: 16) else { break }
                bytes.append(byte)
            }
            return bytes.isEmpty ? nil : TimedMIDI(frame: frame, bytes: bytes)
        }
    }

    /// Frames relative to the first message.
    static func relative(_ messages: [TimedMIDI]) -> [TimedMIDI] {
        guard let first = messages.first else { return [] }
        return messages.map { TimedMIDI(frame: $0.frame - first.frame, bytes: $0.bytes) }
    }

    /// One 2-second recording of the client's two sines by `jack_rec`.
    struct SineRecording {
        var audio: WAVAudio
        /// What jack_rec printed (its standard error too, where it reports overruns).
        var recorderOutput: String
        var handler: SineHandler
        var statistics: JACKClientStatistics
    }

    static func recordSines() throws -> SineRecording {
        // 1024-frame periods: fewer cycles for a busy machine to hold back.
        let server = try JACKTestServer(period: 1024)
        let client = try JACKClient(configuration: server.configuration)
        let handler = SineHandler(leftFrequency: 440, rightFrequency: 660, peakDBFS: -12)
        try client.activate(handler: handler)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(server.name).wav").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let recorder = try server.recorder(file: file, seconds: 2, ports: [client.ports.leftOutput, client.ports.rightOutput])
        try waitUntil("jack_rec to finish") { !recorder.process.isRunning }
        let statistics = client.statistics
        client.close()
        let audio = try WAVAudio(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        return SineRecording(audio: audio, recorderOutput: recorder.readOutput(), handler: handler, statistics: statistics)
    }

    /// The recording must be exact: pitch, level, and the sine in every period. The test server's cycles wait for
    /// a late client (``JACKTestServer``), so a busy machine delays periods but drops none: a dropout is the client's.
    @Test(.enabled(if: Peers.runnable("jackd", "jack_rec")))
    func audioReachesARecordingClientWithPitchAndLevel() throws {
        let recording = try Self.recordSines()
        #expect(!recording.recorderOutput.lowercased().contains("overrun"), "\(recording.recorderOutput)")
        let audio = recording.audio
        #expect(audio.sampleRate == 48_000)
        #expect(audio.channels.count == 2)
        #expect(audio.frameCount >= 48_000)
        for (channel, frequency) in [(0, 440.0), (1, 660.0)] {
            // Skip a period at either end, where the recorder may have joined or left mid-period.
            let samples = Array(audio.channels[channel].dropFirst(1024).dropLast(1024))
            let measured = SignalMeasure.frequency(of: samples, sampleRate: 48_000)
            #expect(abs(measured - frequency) < 0.05, "channel \(channel): \(measured) Hz")
            let peakDB = SignalMeasure.sinePeakDBFS(samples)
            #expect(abs(peakDB - -12) < 0.05, "channel \(channel): \(peakDB) dBFS")
            // Every period carries the sine: no dropped or doubled periods.
            for start in stride(from: 0, to: samples.count - 1200, by: 256) {
                let periodDB = SignalMeasure.sinePeakDBFS(Array(samples[start..<start + 1200]))
                #expect(abs(periodDB - -12) < 0.3, "channel \(channel) at frame \(start): \(periodDB) dBFS")
            }
        }
        #expect(recording.handler.flushToZeroSeen.load(ordering: .relaxed) > 0)
        #expect(recording.handler.flushToZeroMissing.load(ordering: .relaxed) == 0)
        #expect(recording.statistics.silencedPeriods == 0)
    }

    /// What `jack_midi_dump` printed for one scripted run (``playIntoMidiDump(_:expected:finish:)``).
    struct DumpRun {
        var dropped: Int
        /// What `finish` returned.
        var finished: Bool
        var dump: String
        /// The last frame of the client's final period, counted from the first frame of the script by the
        /// handler's own frame count (not read from the dump).
        var finalPeriodLastFrame: Int
    }

    /// Plays `script` from a fresh client on a fresh server into `jack_midi_dump`: connects, waits for the
    /// connection to hold, arms the script, waits for it to play, then runs `finish` before closing, and reads the
    /// dump once it printed `expected` messages (or its wait ended: the test then fails on what it got).
    static func playIntoMidiDump(_ script: [TimedMIDI], expected: Int, finish: (JACKClient) -> Bool = { _ in true }) throws -> DumpRun {
        let server = try JACKTestServer()
        let dump = DumpReader(try server.peer("jack_midi_dump", ["-a", "dump"]))
        let client = try JACKClient(configuration: server.configuration)
        try waitUntil("dump:input") { client.portInfo(named: "dump:input") != nil }
        let handler = ScriptedMIDIHandler(script: script)
        try client.activate(handler: handler)
        // A client's ports accept connections only once it is active: retry until then.
        // The connect returns once the connection carries MIDI (JACKClient.connect waits for it).
        try waitUntil("dump to accept a connection") { (try? client.connect(client.ports.midiOutput, to: "dump:input")) != nil }
        handler.armed.store(true, ordering: .releasing)
        try waitUntil("the script to play") { handler.scriptFinished.load(ordering: .acquiring) }
        let finished = finish(client)
        let dropped = client.statistics.midiOutputDropped
        client.close()
        let finalPeriodLastFrame = handler.latestPeriodStart.load(ordering: .acquiring) + handler.lastPeriod.load(ordering: .relaxed) - 1
            - handler.scriptStart.load(ordering: .relaxed)
        // jack_midi_dump prints from its own loop, which a busy machine holds back.
        _ = try? waitUntil("the dump to print \(expected) messages") { parseDump(dump.current()).count >= expected }
        return DumpRun(dropped: dropped, finished: finished, dump: dump.stop(), finalPeriodLastFrame: finalPeriodLastFrame)
    }

    /// Messages written in one period must reach `jack_midi_dump` at their frames.
    @Test(.enabled(if: Peers.runnable("jackd", "jack_midi_dump")))
    func midiOutputArrivesInMidiDumpAtTheRightFrames() throws {
        // Sent out of time order on purpose; frames relative to the first armed period (256 frames).
        let script = [
            TimedMIDI(frame: 200, bytes: [0xB0, 0x07, 0x64]),
            TimedMIDI(frame: 10, bytes: [0x90, 0x3C, 0x64]),
            TimedMIDI(frame: 296, bytes: [0x80, 0x3C, 0x00]),
            TimedMIDI(frame: 1023, bytes: [0x90, 0x40, 0x7F]),
            TimedMIDI(frame: 1023, bytes: [0x80, 0x40, 0x00]),
        ]
        let run = try Self.playIntoMidiDump(script, expected: script.count + 1)
        let received = Self.parseDump(run.dump)
        #expect(Self.relative(received) == [
            TimedMIDI(frame: 0, bytes: [0x90, 0x3C, 0x64]),
            TimedMIDI(frame: 190, bytes: [0xB0, 0x07, 0x64]),
            TimedMIDI(frame: 286, bytes: [0x80, 0x3C, 0x00]),
            TimedMIDI(frame: 1013, bytes: [0x90, 0x40, 0x7F]),
            TimedMIDI(frame: 1013, bytes: [0x80, 0x40, 0x00]),
            // Stopping: channel 0 was used, so it gets All Notes Off at the last frame of the final period,
            // which the client's own frame count places (relative to the first message, script frame 10).
            TimedMIDI(frame: run.finalPeriodLastFrame - 10, bytes: [0xB0, 123, 0]),
        ], "\(received)")
        #expect(run.dropped == 0)
    }

    @Test(.enabled(if: Peers.runnable("jackd", "jack_midi_dump")))
    func stoppingSendsNoteOffsAndAllNotesOffThatReachMidiDump() throws {
        let script = [
            TimedMIDI(frame: 0, bytes: [0x90, 60, 100]),
            TimedMIDI(frame: 1, bytes: [0x92, 67, 80]),
            TimedMIDI(frame: 2, bytes: [0x90, 64, 90]),
            TimedMIDI(frame: 3, bytes: [0x80, 64, 0]),
        ]
        let run = try Self.playIntoMidiDump(script, expected: 8) { client in
            // Some periods pass while the notes sound.
            let periods = client.statistics.periods
            _ = try? waitUntil("periods while the notes sound") { client.statistics.periods >= periods + 8 }
            return client.stop()
        }
        #expect(run.finished, "the client stopped")
        let received = Self.parseDump(run.dump)
        #expect(received.count == 8, "\(received)")
        guard received.count == 8 else { return }
        #expect(received.prefix(4).map(\.bytes) == [[0x90, 60, 100], [0x92, 67, 80], [0x90, 64, 90], [0x80, 64, 0]])
        let final = Array(received.suffix(4))
        #expect(final.map(\.bytes) == [[0x80, 60, 64], [0xB0, 123, 0], [0x82, 67, 64], [0xB2, 123, 0]])
        #expect(Set(final.map(\.frame)).count == 1, "all in the final period, at its last frame")
        #expect(final[0].frame > received[3].frame)
    }

    /// jack_midiseq's loop (0.5 s: C, then E) reaches the handler at its frames. The loop is taken from the second C
    /// on, once the connection has settled (the first event after connecting can land a period late).
    @Test(.enabled(if: Peers.runnable("jackd", "jack_midiseq")))
    func midiFromMidiseqReachesTheHandlerFrameAccurately() throws {
        let server = try JACKTestServer()
        let client = try JACKClient(configuration: server.configuration)
        let handler = ScriptedMIDIHandler()
        try client.activate(handler: handler)
        let sequencer = try server.peer("jack_midiseq", ["seq", "24000", "0", "60", "12000", "12000", "64", "6000"])
        defer { sequencer.stop() }
        try waitUntil("seq:out") { client.portInfo(named: "seq:out") != nil }
        try waitUntil("seq to accept a connection") { (try? client.connect("seq:out", to: client.ports.midiInput)) != nil }
        func loopFromSecondC() -> [TimedMIDI]? {
            let messages = handler.receivedMessages
            let cs = messages.indices.filter { messages[$0].bytes == [0x90, 60, 64] }
            guard cs.count >= 2, messages.count >= cs[1] + 5 else { return nil }
            return Array(messages[cs[1]..<cs[1] + 5])
        }
        try waitUntil("two loops from jack_midiseq") { loopFromSecondC() != nil }
        client.close()
        let loop = Self.relative(loopFromSecondC() ?? []), lost = client.statistics.midiInputLost
        #expect(loop == [
            TimedMIDI(frame: 0, bytes: [0x90, 60, 64]),
            TimedMIDI(frame: 12_000, bytes: [0x80, 60, 64]),
            TimedMIDI(frame: 12_000, bytes: [0x90, 64, 64]),
            TimedMIDI(frame: 18_000, bytes: [0x80, 64, 64]),
            TimedMIDI(frame: 24_000, bytes: [0x90, 60, 64]),
        ])
        #expect(lost == 0)
    }

    /// A live session (`prospero play`) whose server is killed or stopped under it: the session notices and ends.
    ///
    /// In a child process: after a server's shutdown, closing the client can deadlock inside libjack; the session
    /// then ends at its bound with a warning saying so (``libjackWedged(_:)``), and that process can open no client
    /// again. In this process it would stop every later JACK test. How soon the session ends is a figure for the
    /// live bench; here it must end, say why, and exit 1.
    @Test(.enabled(if: liveStopRunnable), arguments: [SIGTERM, SIGKILL])
    func killingTheServerEndsTheSessionCleanly(signal: Int32) throws {
        let server = try JACKTestServer()
        defer { server.reclaimRegistrySlot() }
        let prospero = try ProsperoOnJACK(["play", "--client-name", "KillPlay", "--duration", "600", "--no-connect-audio"],
                                          server: server, log: "kill")
        try prospero.waitForLine(containing: "MIDI in → sound")
        // SIGTERM: jackd tells its clients, then takes a while to exit (not waited for here).
        if signal == SIGKILL { server.crash() } else { kill(server.jackd.pid, SIGTERM) }
        try waitUntil("the session to end") { !prospero.isRunning }
        let output = prospero.output
        #expect(prospero.process.terminationStatus == 1, "\(output)")
        #expect(output.contains("JACK server shut down"), "\(output)")
    }

    /// The wedge warning `LiveSession` prints (``JACKError/libraryWedged(detail:)``).
    static func libjackWedged(_ output: String) -> Bool { output.contains("libjack is stuck in this process") }

    /// With `--reconnect` the session outlives its server and plays on a new one, prepared for its rate. When
    /// libjack wedged in the close after the shutdown (``libjackWedged(_:)``), no client can open in that process
    /// again: the session must then end, saying so, instead of waiting for good.
    @Test(.enabled(if: liveStopRunnable))
    func withReconnectTheSessionWaitsForTheServerAndContinues() throws {
        var server = try JACKTestServer()
        let name = server.name
        let prospero = try ProsperoOnJACK(["play", "--reconnect", "--client-name", "ReconnectPlay", "--duration", "600", "--no-connect-audio"],
                                          server: server, log: "reconnect")
        try prospero.waitForLine(containing: "MIDI in → sound")
        server.stop()
        try waitUntil("the session to wait for the server") {
            prospero.output.contains("Waiting for the JACK server to return") || !prospero.isRunning
        }
        if Self.libjackWedged(prospero.output) {
            try waitUntil("the wedged session to end") { !prospero.isRunning }
            #expect(prospero.process.terminationStatus == 1, "\(prospero.output)")
            #expect(!prospero.output.contains("Waiting for the JACK server to return"), "\(prospero.output)")
            return
        }
        #expect(prospero.isRunning, "the session waits instead of ending: \(prospero.output)")
        server = try JACKTestServer(sampleRate: 44_100, named: name)
        try waitUntil("the session to reconnect") {
            // Its setup printed a second time, to its last line.
            prospero.output.components(separatedBy: "MIDI in → sound").count == 3
        }
        // Re-prepared for the new server's rate: the synth's limiter look-ahead (1 ms) it reports is its prepared
        // length in frames, 48 at 48 kHz before and 44 at 44.1 kHz after.
        let output = prospero.output
        let parts = output.components(separatedBy: "Reconnected to JACK server")
        #expect(parts.count == 2, "\(output)")
        #expect(parts[0].contains("processing latency 48 frames"), "\(output)")
        #expect(parts.last!.contains("44100 Hz") && parts.last!.contains("processing latency 44 frames"), "\(output)")
        #expect(try prospero.stop() == 0, "\(prospero.output)")
    }

    /// A killed server's slot in JACK's 8-slot registry is found and freed (``JACKServerRegistry``): killed test
    /// servers once filled it and every jackd on the machine exited at startup.
    @Test(.enabled(if: Peers.runnable("jackd")))
    func aKilledServersRegistrySlotIsFreed() throws {
        let server = try JACKTestServer()
        #expect(JACKServerRegistry.entries().contains { $0.name == server.name && $0.pid == server.jackd.pid })
        server.jackd.stop(signal: SIGKILL)
        #expect(JACKServerRegistry.stale().contains(server.name))
        JACKServerRegistry.reclaim(server.name)
        #expect(!JACKServerRegistry.entries().contains { $0.name == server.name })
    }

    @Test(.enabled(if: Peers.runnable("jackd")))
    func sessionReportsItsSetupConnectsAudioAndEndsAfterItsDuration() throws {
        let server = try JACKTestServer()
        let lines = Mutex<[String]>([])
        let session = LiveSession(
            handler: SineHandler(leftFrequency: 440, rightFrequency: 440, peakDBFS: -20),
            options: LiveSessionOptions(client: server.configuration, duration: .milliseconds(500), handlesSignals: false),
            log: { line in lines.withLock { $0.append(line) } }
        )
        let outcome = try session.run()
        #expect(outcome == .durationElapsed)
        #expect(outcome.isClean)
        let log = lines.withLock { $0 }.joined(separator: "\n")
        #expect(log.contains("Connected to JACK server \"\(server.name)\" as \"Prospero\": 48000 Hz, period 256 frames (5.33 ms), realtime no"), "\(log)")
        #expect(log.contains("Prospero:out_left → system:playback_1"))
        #expect(log.contains("Prospero:out_right → system:playback_2"))
        #expect(log.contains("Prospero:midi_in (not connected)"))
        #expect(log.contains("playback latency"))
        #expect(log.contains("Stopped (duration elapsed)"))
        // It played (about 94 periods of 256 frames in 0.5 s at 48 kHz on a quiet machine; fewer while the machine
        // holds the server back, so no count is asserted).
        #expect(session.statistics.periods > 0)
    }

    @Test(.enabled(if: Peers.runnable("jackd")))
    func sessionEndsCleanlyOnSIGTERM() throws {
        let server = try JACKTestServer()
        let session = LiveSession(
            handler: SineHandler(leftFrequency: 440, rightFrequency: 440, peakDBFS: -20),
            options: LiveSessionOptions(client: server.configuration, duration: .seconds(30), handlesSignals: true),
            log: { _ in }
        )
        let result = Mutex<Result<LiveSessionOutcome, JACKError>?>(nil)
        let thread = Thread {
            let outcome = Result { () throws(JACKError) in try session.run() }
            result.withLock { $0 = outcome }
        }
        thread.start()
        try waitUntil("the session to play") { session.statistics.periods > 10 }
        kill(getpid(), SIGTERM) // caught by the session's trap while it runs
        try waitUntil("the session to end") { result.withLock { $0 != nil } }
        #expect(try result.withLock { $0! }.get() == .interrupted(signal: SIGTERM))
    }

    @Test(.enabled(if: Peers.runnable("jackd")))
    func anUnknownMIDIPortIsAnErrorNamingTheAvailableOnes() throws {
        let server = try JACKTestServer()
        let session = LiveSession(
            handler: SineHandler(leftFrequency: 440, rightFrequency: 440, peakDBFS: -20),
            options: LiveSessionOptions(client: server.configuration, midiInputSources: ["keyboard:out"], handlesSignals: false),
            log: { _ in }
        )
        // Only MIDI sources are offered for a MIDI input.
        #expect(throws: JACKError.portNotFound(name: "keyboard:out", available: ["Prospero:midi_out"])) { try session.run() }
    }

    @Test(.enabled(if: Peers.runnable("jackd")))
    func midiBeyondCapacityIsDroppedAndCountedWhilePlayingGoesOn() throws {
        let server = try JACKTestServer()
        let client = try JACKClient(configuration: server.configuration)
        // 3000 messages in one period: 2048 fit the staging buffer, the rest are dropped.
        let handler = ScriptedMIDIHandler(script: (0..<3000).map { TimedMIDI(frame: 5, bytes: [0xB0, 1, UInt8($0 % 128)]) })
        try client.activate(handler: handler)
        handler.armed.store(true, ordering: .releasing)
        try waitUntil("the script to play") { handler.scriptFinished.load(ordering: .acquiring) }
        let periods = client.statistics.periods
        try waitUntil("more periods") { client.statistics.periods > periods + 5 }
        let dropped = client.statistics.midiOutputDropped
        client.close()
        #expect(dropped >= 3000 - 2048)
        #expect(dropped < 3000)
    }

    @Test func aMissingServerGivesAClearError() throws {
        let name = "prospero-absent-\(getpid())"
        do {
            _ = try JACKClient(configuration: JACKClient.Configuration(serverName: name))
            Issue.record("opened a client on a server that does not exist")
        } catch {
            guard case .serverUnavailable(let serverName, _) = error else {
                Issue.record("expected serverUnavailable, got \(error)")
                return
            }
            #expect(serverName == name)
            #expect(error.description.contains("jackd -d dummy"))
            #expect(error.description.contains("pipewire-jack"))
            #expect(error.description.contains(name))
        }
        let session = LiveSession(
            handler: SineHandler(leftFrequency: 1, rightFrequency: 1, peakDBFS: -60),
            options: LiveSessionOptions(client: JACKClient.Configuration(serverName: name), handlesSignals: false),
            log: { _ in }
        )
        #expect(throws: JACKError.self) { try session.run() }
    }

    @Test(.enabled(if: Peers.runnable("jackd", "jack_bufsize")))
    func bufferSizeChangesReprepareTheHandler() throws {
        let server = try JACKTestServer(period: 256)
        let client = try JACKClient(configuration: server.configuration)
        let handler = ScriptedMIDIHandler()
        try client.activate(handler: handler)
        try waitUntil("periods of 256") { handler.lastPeriod.load(ordering: .relaxed) == 256 }
        let resize = try server.peer("jack_bufsize", ["1024"])
        try waitUntil("jack_bufsize") { !resize.process.isRunning }
        try waitUntil("periods of 1024") { handler.lastPeriod.load(ordering: .relaxed) == 1024 }
        let stats = client.statistics
        client.close()
        let prepares = handler.prepares.withLock { $0 }
        #expect(prepares.first?.maximumFrames == 256)
        #expect(prepares.last?.maximumFrames == 1024)
        #expect(prepares.last?.sampleRate == 48_000)
        #expect(stats.reprepareCount >= 1)
    }

    @Test(.enabled(if: Peers.runnable("jackd")))
    func xrunsAreCountedAndReadableFromTheMainThread() throws {
        let server = try JACKTestServer()
        let client = try JACKClient(configuration: server.configuration)
        let handler = ScriptedMIDIHandler()
        try client.activate(handler: handler)
        try waitUntil("periods") { client.statistics.periods > 10 }
        // A loaded host may already have caused xruns; the stall must add at least one.
        let before = client.statistics.xruns
        handler.stalls.store(1, ordering: .relaxed)
        try waitUntil("an xrun to be reported") { client.statistics.xruns > before }
        client.close()
    }
}
