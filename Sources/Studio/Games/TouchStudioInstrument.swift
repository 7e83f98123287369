import Games
import InstrumentSettings

/// Touch for Music at `/games/touch/`. Frame: `volume` (0…1), `touching`, `circle` ({`x`, `y`,
/// `scale`, `opacity`}: the pulsing circle that follows the finger, as the model animates it).
public final class TouchStudioInstrument: GameStudioInstrument {
    public override class var id: String { "touch" }
    public override class var kind: GameKind { .touch }

    override func gameFrame(_ model: any GameModel, at time: Double) -> [String: StudioValue] {
        guard let t = model as? TouchForMusic else { return [:] }
        let a = t.circleAppearance(at: time)
        return ["volume": .number(Self.rounded(t.volume)), "touching": .bool(t.isTouching),
                "circle": .object(["x": .number(Self.rounded(a.x)), "y": .number(Self.rounded(a.y)),
                                   "scale": .number(Self.rounded(a.scale)), "opacity": .number(Self.rounded(a.opacity))])]
    }
}
