import ArgumentParser
import Ariel
import Foundation
import Oberon

/// What every render command shares: loudness figures of the audio it made, and its picture
/// (`--plot FILE.png|FILE.svg`) through Oberon's `RenderPlot`.
enum AudioPicture {
    /// Picture width in pixels.
    static let width = 1200

    /// Rejects a `--plot` path whose extension is neither .png nor .svg.
    static func validate(plot path: String?) throws {
        guard let path else { return }
        guard PlotDocument.Format(path: path) != nil else {
            throw ValidationError("--plot must name a .png or .svg file, got '\(path)'")
        }
    }

    /// Analyses `channels` (one array per channel) in blocks; with `picture`, also the overview and spectrogram.
    static func analyze(_ channels: [[Float]], sampleRate: Double, picture: Bool) -> ProgrammeAnalyzer {
        let frames = channels.first?.count ?? 0
        let analyzer = ProgrammeAnalyzer(
            sampleRate: sampleRate, channelCount: channels.count, totalFrames: frames,
            pictureColumns: picture ? RenderPlot.plotColumns(width: width) : nil)
        var start = 0
        while start < frames {
            let end = min(frames, start + 8_192)
            analyzer.process(channels.map { Array($0[start..<end]) })
            start = end
        }
        analyzer.finish()
        return analyzer
    }

    /// What a WAV file holds, read back in blocks (memory does not grow with its length).
    struct FileAnalysis {
        var analyzer: ProgrammeAnalyzer
        var sampleRate: Int
        var channelCount: Int
        var bitsPerSample: Int
        var isFloat: Bool
    }

    /// Analyses the WAV file at `path` in blocks of 16 384 frames; with `picture`, also the overview and
    /// spectrogram. Errors name the file.
    static func analyze(file path: String, picture: Bool) throws -> FileAnalysis {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ValidationError("cannot open \(path)") }
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
        do { reader = try WAVStreamReader(read: read) } catch { throw ValidationError("\(path): \(error)") }
        // The picture's columns need the length: from the data chunk, or from the file size when unknown.
        var totalFrames = reader.declaredFrames
        if totalFrames == 0, let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int {
            totalFrames = size / max(1, reader.channelCount * reader.bitsPerSample / 8)
        }
        let analyzer = ProgrammeAnalyzer(
            sampleRate: Double(reader.sampleRate), channelCount: min(reader.channelCount, 8), totalFrames: max(1, totalFrames),
            pictureColumns: picture ? RenderPlot.plotColumns(width: width) : nil)
        var block: [[Float]] = []
        while true {
            let frames: Int
            do { frames = try reader.readBlock(maximumFrames: 16_384, into: &block) } catch { throw ValidationError("\(path): \(error)") }
            if frames == 0 { break }
            analyzer.process(Array(block.prefix(analyzer.channelCount)))
        }
        analyzer.finish()
        return FileAnalysis(
            analyzer: analyzer, sampleRate: reader.sampleRate, channelCount: reader.channelCount,
            bitsPerSample: reader.bitsPerSample, isFloat: reader.isFloat)
    }

    /// The loudness line every render prints.
    static func loudnessLine(_ report: LoudnessReport) -> String {
        "loudness: \(report.summary) (BS.1770-4 / EBU R128)"
    }

    /// Writes `plot` to `path` (format from the extension), creating the folder.
    static func write(_ plot: RenderPlot, to path: String, announce: Bool = true) throws {
        guard let format = PlotDocument.Format(path: path) else {
            throw ValidationError("--plot must name a .png or .svg file, got '\(path)'")
        }
        let bytes: [UInt8]
        do { bytes = try plot.document().encoded(as: format) } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode.failure
        }
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        } catch {
            FileHandle.standardError.write(Data("error: cannot write \(path): \(error.localizedDescription)\n".utf8))
            throw ExitCode.failure
        }
        let line = "wrote \(path): \(plot.width) px wide picture"
        if announce { print(line) } else { FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }
}
