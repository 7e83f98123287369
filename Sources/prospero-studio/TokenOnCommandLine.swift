/// `--token VALUE` (or `--token=VALUE`) on the studio's command line: refused before anything runs, saying why and
/// what to use instead. Every user of the machine reads a running process's arguments (`ps`, `/proc/PID/cmdline`),
/// so a token there would be no secret for as long as the studio serves.
struct TokenOnCommandLine: Error, CustomStringConvertible {
    /// Whether `arguments` (the studio's, without the executable) pass a token as an option.
    static func isPassed(in arguments: [String]) -> Bool {
        arguments.contains { $0 == "--token" || $0.hasPrefix("--token=") }
    }

    var description: String {
        """
        --token is not accepted: a token on the command line can be read by every user of this machine \
        (ps, /proc/PID/cmdline) for as long as the studio runs. Put it in a file only you can read and pass \
        --token-file FILE (its first line is the token), or set the environment variable PROSPERO_STUDIO_TOKEN. \
        Without either, the studio makes a random token beyond loopback and prints it in the URL.
        """
    }
}
