import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `prospero studio …`: replaces this process with `prospero-studio …` (same process id, same signals,
/// same standard streams): the `prospero-studio` installed beside this executable, never built at run time.
/// Every option is the studio's own: `prospero studio --help` prints them.
struct StudioLauncherCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "The studio: play and see every instrument in a browser (a phone on the LAN becomes a touch surface).",
        discussion: """
            The studio is its own executable, prospero-studio, next to prospero: its web server (HTTP, WebSocket, TLS) is
            most of the package's build, so `prospero demo` and the live commands never wait for it. In a checkout, build
            it with `swift build -c release --product prospero-studio`; `prospero studio --help` lists its options.
            """,
        // Every argument, --help included, belongs to prospero-studio.
        helpNames: []
    )

    @Argument(parsing: .captureForPassthrough, help: "The studio's options (see prospero studio --help).")
    var arguments: [String] = []

    func run() throws {
        let executable: String
        do { executable = try StudioExecutable.ready() } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode.failure
        }
        let argv = [executable] + arguments
        var cArguments = argv.map { strdup($0) }
        cArguments.append(nil)
        execv(executable, &cArguments)
        let reason = String(cString: strerror(errno))
        FileHandle.standardError.write(Data("error: cannot run \(executable): \(reason)\n".utf8))
        throw ExitCode.failure
    }
}
