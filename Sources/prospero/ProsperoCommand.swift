import ArgumentParser

/// `prospero`: one executable, a subcommand per instrument and tool.
@main
struct ProsperoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prospero",
        abstract: "Gesture-to-music toolkit: faces play chords, hands play notes and MIDI.",
        version: "0.1.0",
        subcommands: [
            DemoCommand.self, HecateCommand.self, HandsCommand.self, HiSynthCommand.self, RenderCommand.self, PlayCommand.self, CameraCommand.self,
            HapticsCommand.self, GameCommand.self, AnalyzeCommand.self, OSCCommand.self, JACKCommand.self, StudioLauncherCommand.self,
        ]
    )
}
