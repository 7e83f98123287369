import Ariel
import Oberon

extension FuzzTarget {
    /// Reads `bytes` as a WAV stream in small, uneven pieces and blocks, analysing what arrives.
    static func runWAVStream(_ bytes: [UInt8]) -> Bool {
        var position = 0
        var pieceSize = 1
        let read: (Int) throws -> [UInt8] = { count in
            // Uneven short reads, as from a pipe; never more than asked.
            pieceSize = pieceSize % 7 + 1
            let end = min(bytes.count, position + min(count, max(1, count / pieceSize)))
            defer { position = end }
            return Array(bytes[position..<end])
        }
        // The reader wants exactly `count` bytes per call until the end, so gather short reads.
        let exact: (Int) throws -> [UInt8] = { count in
            var out: [UInt8] = []
            while out.count < count {
                let piece = try read(count - out.count)
                if piece.isEmpty { break }
                out += piece
            }
            return out
        }
        guard var reader = try? WAVStreamReader(read: exact) else { return false }
        let analyzer = ProgrammeAnalyzer(sampleRate: Double(reader.sampleRate), channelCount: min(reader.channelCount, 8))
        var block: [[Float]] = []
        var blocks = 0
        while let frames = try? reader.readBlock(maximumFrames: 1 + blocks % 300, into: &block), frames > 0 {
            analyzer.process(Array(block.prefix(analyzer.channelCount)))
            blocks += 1
        }
        analyzer.finish()
        let report = analyzer.report
        if let peak = report.samplePeakDBFS, let truePeak = report.truePeakDBTP, truePeak < peak - 0.001 {
            fatalError("true peak \(truePeak) below sample peak \(peak)")
        }
        return true
    }
}
