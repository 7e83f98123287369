import Games
import InstrumentSettings

/// Harmony With Me at `/games/harmony/`. Frame: `circle` ({`x`, `y` 0…1 of the play area, `r` as a
/// fraction of its width, `until` session s} or null), `group` (sound group), `phrases` (hits so far),
/// `playing` (a harmony phrase sounds).
public final class HarmonyStudioInstrument: GameStudioInstrument {
    public override class var id: String { "harmony" }
    public override class var kind: GameKind { .harmony }

    override func gameFrame(_ model: any GameModel, at time: Double) -> [String: StudioValue] {
        guard let h = model as? HarmonyWithMe<GameRandom> else { return [:] }
        let circle: StudioValue = h.circle.map { c in
            .object(["x": .number(Self.rounded(c.x)), "y": .number(Self.rounded(c.y)), "r": .number(c.radius),
                     "until": .number(Self.rounded(c.hiddenAt))])
        } ?? .null
        return ["circle": circle, "group": .number(Double(h.soundGroup)), "phrases": .number(Double(h.phrasesPlayed.count)),
                "playing": .bool(h.isPlayingHarmonySound)]
    }
}
