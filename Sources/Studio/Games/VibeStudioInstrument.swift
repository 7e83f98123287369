import Games
import InstrumentSettings

/// Feel Your Vibe at `/games/vibe/`. Frame: `frequency` (tremolo rate, Hz), `depth` (0…1),
/// `crossings` (centre-line crossings so far), `gain` (the tremolo's gain now, 0…1: the engine's while
/// audio renders, else the seed's LFO law at the clock's phase).
public final class VibeStudioInstrument: GameStudioInstrument {
    public override class var id: String { "vibe" }
    public override class var kind: GameKind { .vibe }

    override func gameFrame(_ model: any GameModel, at time: Double) -> [String: StudioValue] {
        guard let v = model as? FeelYourVibe else { return [:] }
        let gain: Double
        if clock.rendering, let s = output.host.latestSnapshot().snapshot {
            gain = Double(s.tremoloGain)
        } else {
            // The pulsing the page shows follows the LFO even with no audio running.
            var lfo = VibeLFO()
            lfo.frequency = v.frequency
            lfo.amplitude = v.depth
            gain = VibeLFO.gain(value: lfo.update(deltaTime: time - startedAt), amplitude: v.depth)
        }
        return ["frequency": .number(Self.rounded(v.frequency)), "depth": .number(Self.rounded(v.depth)),
                "crossings": .number(Double(v.crossings.count)), "gain": .number(Self.rounded(gain))]
    }
}
