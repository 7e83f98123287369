import Foundation

/// Where `prospero-studio` is: the file beside this executable (`/usr/bin` installed, `.build/release` in a
/// checkout). It is never built at run time: a program that compiles itself surprises users and packagers alike,
/// and a test run would compile it again behind its own build. When it is missing, the error names what to do:
/// in a checkout, the build command for it.
enum StudioExecutable {
    static let name = "prospero-studio"

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// The studio's executable beside this one.
    static func ready() throws -> String {
        let directory = selfDirectory()
        let studio = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: studio.path) { return studio.path }
        let here = directory.appendingPathComponent("prospero").path
        if let checkout = checkout(binDirectory: directory) {
            throw Unavailable(description: "\(name) is not built beside \(here): build it with "
                + "swift build --package-path \(checkout.root.path) -c \(checkout.configuration) --product \(name)")
        }
        throw Unavailable(description: "\(name) is not beside \(here): it is part of the same installation; install it again")
    }

    /// A checkout's build directory: the package root and the configuration.
    struct Checkout {
        let root: URL
        let configuration: String
    }

    /// The running executable's directory (symbolic links resolved, as SwiftPM's `.build/release` is one).
    static func selfDirectory() -> URL {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The checkout whose build directory `binDirectory` is (`SCRATCH/TRIPLE/CONFIGURATION`, with
    /// `Sources/prospero-studio` beside SCRATCH's parent's manifest), else nil (an installed copy).
    static func checkout(binDirectory: URL) -> Checkout? {
        let configuration = binDirectory.lastPathComponent
        guard configuration == "release" || configuration == "debug" else { return nil }
        let root = binDirectory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let manager = FileManager.default
        guard manager.fileExists(atPath: root.appendingPathComponent("Package.swift").path),
              manager.fileExists(atPath: root.appendingPathComponent("Sources/\(name)").path) else { return nil }
        return Checkout(root: root, configuration: configuration)
    }
}
