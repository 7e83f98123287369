extension DroneSynthEngine {
    /// Frames the output lags the engine's input: the output limiter's delay for the stream it was last
    /// prepared for (offline 266 at 48 kHz; live, the 1 ms live stage: 48). Read after `prepare`, not
    /// while another thread renders.
    public var latencySamples: Int { output.limiter.latencySamples }
}
