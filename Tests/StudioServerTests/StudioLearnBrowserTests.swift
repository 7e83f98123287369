import Ariel
import Foundation
import LiveHost
import ProsperoTestSupport
import Studio
import StudioServer
import Testing

/// MIDI learn in real headless Chromium (Browser/settings_learn.py): a studio with Hecate and the hands,
/// and a pump standing in for JACK's `midi_in`: once the page has armed a control it moves CC 20
/// (two values: a move), and once bound it sends the controller's top value.
@Suite("MIDI learn in Chromium", .serialized, .takingTurns())
struct StudioLearnBrowserTests {
    @Test("learn buttons on every knob; click → CC binds → CC moves the tempo; clear forgets",
          .enabled(if: TestPeers.enabled(StudioBrowserTests.available)))
    func learnInTheBrowser() async throws {
        try StudioBrowserTests.requirePeers()
        let studio = try StudioTestServer(instruments: [HecateStudioInstrument(), try HandsStudioInstrument()])
        defer { studio.stop() }
        let session = studio.session, port = studio.port

        // The MIDI pump (what the studio command's settings thread does with JACK's control changes).
        let stopPump = LiveStop(), pumpDone = LiveStop()
        Thread.detachNewThread {
            defer { pumpDone.request(.requested) }
            var moved = false
            func cc(_ value: UInt8) -> MIDIMessage { .controlChange(channel: MIDIChannel(number: 1)!, controller: 20, value: MIDIUInt7(value)!) }
            while stopPump.wait(timeout: .milliseconds(20)) == nil {
                if session.armedLearnControl != nil {
                    session.receiveMIDI(cc(10))
                    session.receiveMIDI(cc(11))
                } else if !moved, session.midiBindings.contains(where: { $0.parameter == "hecate.bpm" }) {
                    // Give the page a moment to show the binding before the control moves.
                    Thread.sleep(forTimeInterval: 0.3)
                    session.receiveMIDI(cc(127))
                    moved = true
                }
            }
        }
        defer {
            stopPump.request(.requested)
            _ = pumpDone.wait(timeout: .seconds(5))
        }
        try FileManager.default.createDirectory(at: StudioBrowserTests.screenshots, withIntermediateDirectories: true)
        try await StudioBrowserTests.run("settings_learn.py", ["http://127.0.0.1:\(port)/", StudioBrowserTests.screenshots.path], timeout: 300)
        #expect(session.midiBindings.isEmpty)  // the page cleared it
        let bpm = session.withInstrument(HecateStudioInstrument.id) { ($0 as? HecateStudioInstrument)?.settings.bpm }
        #expect(bpm == 300)
    }
}
