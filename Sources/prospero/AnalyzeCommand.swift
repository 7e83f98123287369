import ArgumentParser
import Foundation
import Oberon

/// `prospero analyze FILE.wav [--json] [--plot FILE.png]`: levels to broadcast standards, read in
/// blocks so any length of file is analysed in fixed memory.
struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Measure a WAV file: sample and true peak, integrated loudness, loudness range, short-term maximum.",
        discussion: """
            Loudness per ITU-R BS.1770-4 / EBU R128 (K-weighted, gated at −70 LUFS and −10 LU), loudness range per \
            EBU Tech 3342, true peak per BS.1770-4 Annex 2 (4× oversampled). The file is read in blocks; memory does \
            not grow with its length. --json prints samplePeakDBFS, truePeakDBTP, integratedLUFS, loudnessRange, \
            shortTermMaxLUFS and durationSeconds (null where silence leaves no value).
            """
    )

    @Argument(help: "WAV file (PCM 8/16/24/32-bit or float 32/64-bit, any channel count; loudness uses the first five).")
    var file: String

    @Flag(help: "Print the figures as one JSON object.")
    var json = false

    @Option(help: "Also draw the waveform and spectrogram to this .png or .svg file.")
    var plot: String?

    func validate() throws { try AudioPicture.validate(plot: plot) }

    func run() throws {
        guard let handle = FileHandle(forReadingAtPath: file) else {
            FileHandle.standardError.write(Data("error: cannot open \(file)\n".utf8))
            throw ExitCode.failure
        }
        defer { try? handle.close() }
        let read: (Int) throws -> [UInt8] = { count in
            var bytes: [UInt8] = []
            while bytes.count < count {
                guard let data = try handle.read(upToCount: count - bytes.count), !data.isEmpty else { break }
                bytes += data
            }
            return bytes
        }
        var reader: WAVStreamReader
        do { reader = try WAVStreamReader(read: read) } catch {
            FileHandle.standardError.write(Data("error: \(file): \(error)\n".utf8))
            throw ExitCode.failure
        }
        // The picture's columns need the length: from the data chunk, or from the file size when unknown.
        var totalFrames = reader.declaredFrames
        if totalFrames == 0, let size = try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int {
            totalFrames = size / max(1, reader.channelCount * reader.bitsPerSample / 8)
        }
        let analyzer = ProgrammeAnalyzer(
            sampleRate: Double(reader.sampleRate), channelCount: min(reader.channelCount, 8), totalFrames: max(1, totalFrames),
            pictureColumns: plot == nil ? nil : RenderPlot.plotColumns(width: AudioPicture.width))
        var block: [[Float]] = []
        while true {
            let frames: Int
            do { frames = try reader.readBlock(maximumFrames: 16_384, into: &block) } catch {
                FileHandle.standardError.write(Data("error: \(file): \(error)\n".utf8))
                throw ExitCode.failure
            }
            if frames == 0 { break }
            analyzer.process(Array(block.prefix(analyzer.channelCount)))
        }
        analyzer.finish()
        let report = analyzer.report
        if json {
            print(report.json)
        } else {
            print("\(file): \(reader.sampleRate) Hz, \(reader.channelCount) channel\(reader.channelCount == 1 ? "" : "s"), "
                + "\(reader.bitsPerSample)-bit \(reader.isFloat ? "float" : "PCM")")
            print(report.table)
        }
        if let plot {
            let name = URL(fileURLWithPath: file).lastPathComponent
            try AudioPicture.write(RenderPlot.programme(title: name.uppercased(), analyzer: analyzer, width: AudioPicture.width), to: plot, announce: !json)
        }
    }
}
