import ArgumentParser

/// The entry point of `prospero-studio`: ``StudioCommand`` with its arguments, where `--camera` given no DEVICE
/// (last, or before another option) means the first camera and becomes `--camera=0` (an option's value cannot be
/// optional in ArgumentParser, nor empty), and a `--token` is refused with the reason (``TokenOnCommandLine``)
/// rather than as an unknown option.
@main
enum StudioMain {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if TokenOnCommandLine.isPassed(in: arguments) { StudioCommand.exit(withError: TokenOnCommandLine()) }
        for (i, a) in arguments.enumerated() where a == "--camera" && (i + 1 == arguments.count || arguments[i + 1].hasPrefix("-")) {
            arguments[i] = "--camera=0"
        }
        StudioCommand.main(arguments)
    }
}
