import Ariel

extension FuzzTarget {
    /// Feeds the bytes to a stream parser with a small SysEx limit, checks every message it yields
    /// re-encodes to 1…3 bytes, and runs the strict decoder. Accepted when at least one message came out.
    static func runMIDIStream(_ bytes: [UInt8]) -> Bool {
        var parser = MIDIStreamParser(maximumSysExLength: 64)
        var messages = 0
        for b in bytes {
            switch parser.push(b) {
            case .message(let m)?:
                precondition((1...3).contains(m.count))
                messages += 1
            case .systemExclusive?:
                precondition(parser.withSysExPayload { $0.count } <= 64)
                messages += 1
            default: break
            }
        }
        precondition(parser.statistics.messages + parser.statistics.sysExMessages == messages)
        if let decoded = try? MIDIMessage.decode(bytes) {
            // A strictly valid stream re-encodes (with running status) and decodes to the same messages.
            let again = try? MIDIMessage.decode(MIDIMessage.encode(decoded, runningStatus: true))
            precondition(again == decoded, "running-status round trip changed the messages")
        }
        return messages > 0
    }

    /// Reads a file; when it is accepted, writes it back and checks the re-read file has the same
    /// channel messages in every track and a tempo map that converts ticks the same way.
    static func runStandardMIDIFile(_ bytes: [UInt8]) -> Bool {
        guard let file = try? MIDIFile(decoding: bytes) else { return false }
        _ = file.tempoMap.seconds(atTick: 1000)
        if let written = try? file.encoded(runningStatus: true) {
            guard let reread = try? MIDIFile(decoding: written) else {
                preconditionFailure("a file written from a read file could not be read back")
            }
            precondition(reread.tracks.count == file.tracks.count)
            for (a, b) in zip(file.tracks, reread.tracks) {
                let ma = a.events.compactMap { if case .message(let m) = $0.kind { return m } else { return nil } }
                let mb = b.events.compactMap { if case .message(let m) = $0.kind { return m } else { return nil } }
                precondition(ma == mb, "channel messages changed in a write/read round trip")
            }
        }
        let sequencer = MIDISequencer(file: file, sampleRate: 48_000, maximumEventsPerBlock: 64)
        var blocks = 0
        while !sequencer.isFinished && blocks < 64 {
            _ = sequencer.nextBlock(frameCount: 4096)
            blocks += 1
        }
        return true
    }
}
