import Foundation
import Glibc
import ProsperoJACK
import ProsperoTestSupport
import Testing

/// `prospero studio --audio jack`'s MIDI learn, end to end: control changes on the studio's `midi_in` reach the
/// session as events through the JACK driver's delivery thread (a service of the studio app, woken by the audio
/// thread: nothing polls), bind the armed control and move it; at the stop the binding is in the settings file.
extension JACKClientTests {
    @Test(.enabled(if: liveStopRunnable))
    func studioLearnsAControllerFromMidiIn() throws {
        let server = try JACKTestServer()
        let sender = try JACKClient(configuration: server.configuration(client: "learner"))
        // CC 20 on channel 1: 10 then 11 (two values of one controller: it binds), then 127 (the control's top).
        let controller = ScriptedMIDIHandler(script: [
            TimedMIDI(frame: 0, bytes: [0xB0, 20, 10]), TimedMIDI(frame: 4_800, bytes: [0xB0, 20, 11]),
            TimedMIDI(frame: 24_000, bytes: [0xB0, 20, 127]),
        ])
        try sender.activate(handler: controller)
        defer { sender.close() }
        let studio = try StudioRun(server: server, client: "LearnStudio", oscPort: Self.freePort, extra: ["--midi-in", sender.ports.midiOutput])
        try studio.select("hecate", subscribe: #"["state"]"#)
        let socket = try #require(studio.socket)
        try waitUntil("the controller's connection") {
            sender.portInfo(named: "LearnStudio:midi_in").map { !$0.connections.isEmpty } ?? false
        }
        socket.sendText(#"{"type":"action","path":"hecate.learn","value":"hecate.bpm"}"#)
        let armed = socket.readJSON { (($0["changes"] as? [String: Any])?["learn"] as? [String: Any])?["armed"] is String }
        #expect(armed != nil, "learning was not armed: \(studio.output)")
        controller.armed.store(true, ordering: .releasing)
        try waitUntil("the controller's script") { controller.scriptFinished.load(ordering: .acquiring) }
        // The page hears the binding, then the tempo the controller's top value sets (the top of 20…300 BPM).
        var binding: String?
        var tempo: Double?
        while binding == nil || tempo != 300, let message = socket.readJSON(until: { $0["type"] as? String == "changed" }) {
            let changes = message["changes"] as? [String: Any]
            if let bound = ((changes?["learn"] as? [String: Any])?["bindings"] as? [String: Any])?.values.first as? String { binding = bound }
            if binding != nil, let bpm = changes?["bpm"] as? Double { tempo = bpm }
        }
        #expect(binding == "CC 20 ch 1", "\(String(describing: binding)): \(studio.output)")
        #expect(tempo == 300, "CC 20 = 127 set the tempo to \(String(describing: tempo))")
        #expect(try studio.stop() == 0, "\(studio.output)")
        // Written at the stop (or a second after the change): the binding is in the file.
        let saved = (try? String(contentsOf: studio.settingsURL, encoding: .utf8)) ?? ""
        #expect(saved.contains(#""controller":20"#) && saved.contains(#""source":"cc""#), "\(saved)")
    }
}
