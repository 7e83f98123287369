import ArgumentParser
import Ariel

/// The output options `render` and `hisynth render` share: rate, block size, sample format, tail and the
/// picture. Each command keeps its own output path and song-length limit (their defaults differ), and
/// its own default rate (`sampleRate(default:)`).
struct OfflineRenderArguments: ParsableArguments {
    @Option(name: .customLong("sample-rate"), help: "Sample rate in Hz (8000…192000; default 48000, hisynth 44100 as the original).")
    var sampleRate: Int?

    @Option(name: .customLong("block-size"), help: "Frames per block (16…4096).")
    var blockSize: Int = 256

    @Option(help: "Sample format: pcm16, pcm24, float32.")
    var format: String = WAVSampleFormat.pcm24.rawValue

    @Option(help: "Longest tail after the last event, in seconds (0…120); stops early at silence.")
    var tail: Double = 4

    @Option(help: "Also draw the render (waveform, spectrogram, piano roll) to this .png or .svg file.")
    var plot: String?

    @Flag(name: .customLong("live-stage"), help: "Limit through the live output stage (1 ms, as JACK, the studio and the LV2 plugins play) instead of the offline limiter: the samples a live host plays.")
    var liveStage = false

    func validate() throws {
        try AudioPicture.validate(plot: plot)
        if let sampleRate, !(8_000...192_000).contains(sampleRate) {
            throw ValidationError("--sample-rate must be 8000…192000, got \(sampleRate)")
        }
        guard (16...4096).contains(blockSize) else { throw ValidationError("--block-size must be 16…4096, got \(blockSize)") }
        guard WAVSampleFormat(rawValue: format) != nil else { throw ValidationError("unknown --format '\(format)'; choose pcm16, pcm24 or float32") }
        guard tail.isFinite, (0...120).contains(tail) else { throw ValidationError("--tail must be 0…120 seconds, got \(tail)") }
    }

    /// The render's options at `--sample-rate`, or `defaultRate` when it was not given.
    func options(defaultRate: Int, maximumSeconds: Double) -> OfflineRenderOptions {
        OfflineRenderOptions(sampleRate: Double(sampleRate ?? defaultRate), blockSize: blockSize,
                             format: WAVSampleFormat(rawValue: format)!, tailSeconds: tail, maximumSeconds: maximumSeconds,
                             liveOutputStage: liveStage)
    }
}
