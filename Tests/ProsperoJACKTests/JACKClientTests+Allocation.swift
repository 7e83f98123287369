import AllocationCounting
import Ariel
import Foundation
import ProsperoJACK
import ProsperoTestSupport
import Testing

extension JACKClientTests {
    /// The real JACK path allocates nothing from its first period on, warmed up by `prepare` only:
    /// `prospero play`'s handler (`EngineProcessHandler` over the poly synth with every effect) in a
    /// client on `jackd -d dummy`, fed notes, controllers, pitch bend and MIDI clock (the clock
    /// receiver) by a second client, while the test thread toggles the effects (the command drain, and
    /// the reverb's and delay's resets on the audio thread). Counted on JACK's process thread itself
    /// (``AllocationCountingHandler``); a probe allocation at the end proves that thread is counted.
    @Test(.enabled(if: Peers.runnable("jackd")), .allocationCounting)
    func theRealJACKPathAllocatesNothingFromTheFirstPeriod() throws {
        try #require(AllocationCounter.isAvailable)
        var script = [TimedMIDI(frame: 0, bytes: [0xFA])]
        for k in 1...72 { script.append(TimedMIDI(frame: k * 1_000, bytes: [0xF8])) }
        for k in 0..<24 {
            let note = UInt8(48 + (k * 5) % 36)
            script.append(TimedMIDI(frame: 100 + k * 3_000, bytes: [0x90, note, 100]))
            script.append(TimedMIDI(frame: 1_700 + k * 3_000, bytes: [0x80, note, 0]))
            script.append(TimedMIDI(frame: 900 + k * 3_000, bytes: [0xB0, 1, UInt8(k * 5)]))
            script.append(TimedMIDI(frame: 1_200 + k * 3_000, bytes: [0xE0, 0, UInt8(32 + k)]))
        }
        script.sort { $0.frame < $1.frame }

        let server = try JACKTestServer()
        var settings = PolySynthSettings()
        settings.tone.enabled = true
        settings.fuzz.enabled = true
        settings.delay.enabled = true
        settings.reverb.enabled = true
        let synth = EngineProcessHandler(engine: PolySynth(capacity: 16, settings: settings))
        let counting = AllocationCountingHandler(synth)
        let client = try JACKClient(configuration: server.configuration)
        try client.activate(handler: counting)
        defer { client.close() }
        let sender = try JACKClient(configuration: server.configuration(client: "notes"))
        let notes = ScriptedMIDIHandler(script: script)
        try sender.activate(handler: notes)
        defer { sender.close() }
        try waitUntil("the sender to connect") { (try? sender.connect(sender.ports.midiOutput, to: client.ports.midiInput)) != nil }
        notes.armed.store(true, ordering: .releasing)

        // Effects off and on again while the notes play: each comes back through a reset on the audio thread.
        var toggles = 0
        while !notes.scriptFinished.load(ordering: .acquiring), toggles < 400 {
            let effect = PolySynth.Effect.allCases[toggles % 4]
            _ = synth.host.send(.setEffectEnabled(effect, toggles % 8 >= 4))
            _ = synth.host.send(.set(.reverbMix, Double(toggles % 5) / 5))
            toggles += 1
            usleep(20_000)
        }
        // The last events reach the synth in the next periods.
        let lastPeriods = counting.periods.load(ordering: .acquiring)
        try waitUntil("four more periods") { counting.periods.load(ordering: .acquiring) >= lastPeriods + 4 }
        let allocations = counting.allocations.load(ordering: .acquiring)
        let periods = counting.periods.load(ordering: .acquiring)
        let finished = notes.scriptFinished.load(ordering: .acquiring)
        #expect(finished)
        #expect(periods > 100, "\(periods) periods counted")
        #expect(synth.receivedEventCount > 50, "notes, controllers and bends reached the synth")
        #expect(synth.clockBPM != nil, "the clock receiver ran")
        let first = counting.firstPeriodAllocations.load(ordering: .relaxed)
        let later = allocations - first
        #expect(first >= 0, "the first period was counted")
        // Every period after the first: nothing allocates, handler or client or libjack.
        let inside = counting.innerAllocations.load(ordering: .relaxed)
        #expect(later == 0, "\(later) allocations on JACK's process thread after the first of \(periods) periods (\(inside) inside the handler)")
        // The first period too: `prepare` instantiated what `EngineHost.process` needs on first use.
        #expect(first == 0, "\(first) allocations in the first period")

        // The probe: one allocation in the callback is seen, so the zero above is not vacuous.
        let before = counting.periods.load(ordering: .acquiring)
        counting.probe.store(true, ordering: .relaxed)
        try waitUntil("two more periods") { counting.periods.load(ordering: .acquiring) >= before + 2 }
        #expect(counting.allocations.load(ordering: .acquiring) == allocations + 1)
    }
}
