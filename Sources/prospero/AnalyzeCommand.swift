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
        let analysis: AudioPicture.FileAnalysis
        do { analysis = try AudioPicture.analyze(file: file, picture: plot != nil) } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode.failure
        }
        let analyzer = analysis.analyzer
        let reader = analysis
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
