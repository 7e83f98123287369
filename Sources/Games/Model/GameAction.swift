import Haptics

/// What a game model asks of the world: sound, a haptic event, or a change the screen shows.
public enum GameAction: Sendable, Hashable {
    /// A command for the game's audio engine.
    case audio(GameAudioEngine.Command)
    /// A haptic event; its `time` is on the session clock (seconds, the audio clock in a session).
    case haptic(HapticEvent)
    /// The home button appears (after inactivity) or hides (on a touch).
    case homeButton(visible: Bool)
}
