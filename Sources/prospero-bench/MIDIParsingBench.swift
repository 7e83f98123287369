import Ariel
import Foundation

/// MIDI parsing speed on one core: `MIDIFile(decoding:)` over a large generated multi-track SMF and
/// `MIDIStreamParser.push` over a live byte stream, in MB/s of input.
enum MIDIParsingBench {
    static func run(seconds: Double) -> MarkdownTable {
        var table = MarkdownTable(title: "MIDI parsing, one core (`prospero-bench midi`)",
                                  header: ["Input", "Size", "MB/s", "Events/s"])
        let smf = MIDITestData.standardMIDIFile()
        var events = 0
        var expectedEvents = 0
        do {
            let file = try MIDIFile(decoding: smf)
            expectedEvents = file.tracks.reduce(0) { $0 + $1.events.count }
        } catch {
            fatalError("generated SMF does not parse: \(error)")
        }
        let (fileCPU, fileCalls) = repeatForCPU(seconds: seconds / 2) {
            if let file = try? MIDIFile(decoding: smf) { events &+= file.tracks.reduce(0) { $0 + $1.events.count } }
        }
        precondition(events == (fileCalls + 1) * expectedEvents, "SMF parse lost events")
        table.rows.append([
            "Standard MIDI File, format 1, 17 tracks, running status (`MIDIFile(decoding:)`)",
            String(format: "%.1f MB", Double(smf.count) / 1e6),
            String(format: "%.0f", Double(smf.count * fileCalls) / fileCPU / 1e6),
            scaled(Double(expectedEvents * fileCalls) / fileCPU),
        ])

        let stream = MIDITestData.liveStream()
        var messages = 0
        var errors = 0
        let (streamCPU, streamCalls) = repeatForCPU(seconds: seconds / 2) {
            var parser = MIDIStreamParser()
            stream.withUnsafeBufferPointer { bytes in
                for byte in bytes {
                    if case .message? = parser.push(byte) { messages &+= 1 }
                }
            }
            errors += parser.statistics.errors
        }
        precondition(errors == 0, "live stream raised \(errors) parser errors")
        let perPass = messages / (streamCalls + 1)
        table.rows.append([
            "Live byte stream, running status, clocks inside messages, SysEx (`MIDIStreamParser.push`)",
            String(format: "%.1f MB", Double(stream.count) / 1e6),
            String(format: "%.0f", Double(stream.count * streamCalls) / streamCPU / 1e6),
            scaled(Double(perPass * streamCalls) / streamCPU),
        ])
        return table
    }
}
