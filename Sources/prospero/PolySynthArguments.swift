import ArgumentParser
import Ariel

/// The synth options shared by `prospero render`, `prospero play` and `prospero hands`:
/// `@OptionGroup var synth: PolySynthArguments`. An effect is on when one of its options is given.
///
/// The pitch-bend range is not here: `render` and `play` add ``SynthBendRangeArguments`` (`--bend-range`),
/// while `hands` has its own `--bend-range`, which sets the router's and the synth's range together
/// so that a bent note sounds where the fret says.
struct PolySynthArguments: ParsableArguments {
    @Option(help: "Waveform: sine, saw, triangle, square (square plays at 70 % level).")
    var waveform: String = "saw"

    @Option(help: "Voices that may sound at once, 1…256.")
    var voices: Int = 16

    @Option(help: "Attack in seconds, 0…20.")
    var attack: Double = 0.005
    @Option(help: "Decay in seconds, 0…20.")
    var decay: Double = 0.2
    @Option(help: "Sustain level, 0…1.")
    var sustain: Double = 0.8
    @Option(help: "Release in seconds, 0…20.")
    var release: Double = 0.3

    @Option(help: "Portamento 0…1 (glide time = value² seconds; 0 = off).")
    var portamento: Double = 0

    @Option(help: "LFO mode: vibrato (±0.4 semitones at full depth) or tremolo (up to 80 %). CC 1 sets the depth.")
    var lfo: String = "vibrato"
    @Option(name: .customLong("lfo-rate"), help: "LFO rate in Hz, 0.05…20.")
    var lfoRate: Double = 5.5
    @Option(name: .customLong("lfo-depth"), help: "LFO depth 0…1 until the mod wheel (CC 1) moves.")
    var lfoDepth: Double = 0

    @Option(name: .customLong("velocity-sensitivity"), help: "0 (every note full level) … 1.")
    var velocitySensitivity: Double = 0.7
    @Option(help: "Tuning of A4 in Hz, 400…480.")
    var tuning: Double = 440
    @Flag(help: "Mono output (both channels identical).")
    var mono = false

    @Option(help: "Tone: low-pass cutoff in Hz (20…20000); turns the tone control on.")
    var tone: Double?
    @Option(help: "Fuzz drive in dB (0…48); turns the fuzz on.")
    var fuzz: Double?
    @Option(name: .customLong("fuzz-mix"), help: "Fuzz dry/wet 0…1.")
    var fuzzMix: Double = 1
    @Option(name: .customLong("delay-time"), help: "Delay time in seconds (0.001…2); turns the delay on.")
    var delayTime: Double?
    @Option(name: .customLong("delay-feedback"), help: "Delay feedback 0…0.95.")
    var delayFeedback: Double = 0.35
    @Option(name: .customLong("delay-mix"), help: "Delay dry/wet 0…1.")
    var delayMix: Double = 0.25
    @Option(name: .customLong("reverb-mix"), help: "Reverb dry/wet 0…1; turns the reverb on.")
    var reverbMix: Double?
    @Option(name: .customLong("reverb-decay"), help: "Reverb RT60 in seconds, 0.1…30.")
    var reverbDecay: Double = 2
    @Option(name: .customLong("reverb-size"), help: "Reverb room size 0.25…4.")
    var reverbSize: Double = 1

    @Option(help: "Output gain in dB before the limiter, −60…12.")
    var gain: Double = 0
    @Option(help: "Limiter ceiling in dBFS, −60…0.")
    var ceiling: Double = -1

    /// The settings these options describe with the pitch-bend range `bendRange` (semitones),
    /// validated (errors name the option's field).
    func settings(bendRange: Double = PolySynthSettings().pitchBendRange) throws -> PolySynthSettings {
        guard let waveform = PolySynthSettings.Waveform(rawValue: waveform) else {
            throw ValidationError("unknown --waveform '\(waveform)'; choose sine, saw, triangle or square")
        }
        guard let mode = PolySynthSettings.LFOMode(rawValue: lfo) else {
            throw ValidationError("unknown --lfo '\(lfo)'; choose vibrato or tremolo")
        }
        var s = PolySynthSettings()
        s.polyphony = voices
        s.waveform = waveform
        s.attack = attack; s.decay = decay; s.sustain = sustain; s.release = release
        s.portamento = portamento
        s.lfoMode = mode; s.lfoRate = lfoRate; s.lfoDepth = lfoDepth
        s.velocitySensitivity = velocitySensitivity
        s.pitchBendRange = bendRange
        s.tuning = tuning
        s.stereo = !mono
        if let tone { s.tone.enabled = true; s.tone.cutoff = tone }
        if let fuzz { s.fuzz.enabled = true; s.fuzz.drive = fuzz }
        s.fuzz.mix = fuzzMix
        if let delayTime { s.delay.enabled = true; s.delay.time = delayTime }
        s.delay.feedback = delayFeedback; s.delay.mix = delayMix
        if let reverbMix { s.reverb.enabled = true; s.reverb.mix = reverbMix }
        s.reverb.decay = reverbDecay; s.reverb.size = reverbSize
        s.outputGain = gain
        s.ceiling = ceiling
        do {
            try s.validate(capacity: PolySynth.maximumCapacity)
        } catch {
            throw ValidationError("invalid synth setting: \(error)")
        }
        return s
    }

    func validate() throws { _ = try settings() }
}
