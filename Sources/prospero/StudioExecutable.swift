import Foundation

/// Where `prospero-studio` is, made when it can be: the file beside this executable; when this executable
/// lives in a SwiftPM build directory of a Prospero checkout (`ROOT/.build/TRIPLE/CONFIGURATION/prospero`),
/// the studio is built there with the same configuration when it is missing or any file under
/// `ROOT/Sources` (or the manifest) is newer than it, so an edited checkout never serves a stale studio.
enum StudioExecutable {
    static let name = "prospero-studio"

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// A checkout's build of this executable: the package root, the scratch path and the configuration.
    struct Checkout {
        let root: URL
        let scratch: URL
        let configuration: String
    }

    /// The studio's executable, built first when needed (`log` hears what happens, the build's output goes
    /// to standard error so that standard output stays the studio's).
    static func ready(log: (String) -> Void) throws -> String {
        let directory = selfDirectory()
        let studio = directory.appendingPathComponent(name)
        let exists = FileManager.default.isExecutableFile(atPath: studio.path)
        guard let checkout = checkout(binDirectory: directory) else {
            if exists { return studio.path }
            throw Unavailable(description: "\(name) is not beside \(directory.appendingPathComponent("prospero").path): "
                + "install it with prospero (from a checkout: swift build -c release --product \(name))")
        }
        // A build that only copies resources leaves the executable's time alone: the stamp says when the
        // sources were last built, so that such a change costs one build, not one per start.
        let stamp = directory.appendingPathComponent(name + ".built")
        let built = [modified(studio), modified(stamp)].compactMap { $0 }.max()
        if exists, let built, let newest = newestSource(in: checkout.root), newest <= built {
            return studio.path
        }
        log(exists ? "the sources changed since \(name) was built: building it again"
                   : "building \(name), the studio's web server (the first time takes a few minutes)…")
        let started = Date()
        try build(checkout)
        guard FileManager.default.isExecutableFile(atPath: studio.path) else {
            throw Unavailable(description: "the build did not make \(studio.path)")
        }
        // The sources as they were when the build started: a file saved during the build is newer than this.
        _ = FileManager.default.createFile(atPath: stamp.path, contents: nil)
        try? FileManager.default.setAttributes([.modificationDate: started], ofItemAtPath: stamp.path)
        return studio.path
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
        let scratch = binDirectory.deletingLastPathComponent().deletingLastPathComponent()
        let root = scratch.deletingLastPathComponent()
        let manager = FileManager.default
        guard manager.fileExists(atPath: root.appendingPathComponent("Package.swift").path),
              manager.fileExists(atPath: root.appendingPathComponent("Sources/\(name)").path) else { return nil }
        return Checkout(root: root, scratch: scratch, configuration: configuration)
    }

    /// The newest modification time of the manifest, its resolution and every file under `Sources`.
    static func newestSource(in root: URL) -> Date? {
        var newest = [root.appendingPathComponent("Package.swift"), root.appendingPathComponent("Package.resolved")]
            .compactMap(modified).max()
        guard let walker = FileManager.default.enumerator(
            at: root.appendingPathComponent("Sources"), includingPropertiesForKeys: [.contentModificationDateKey]) else { return newest }
        for case let url as URL in walker {
            if let date = modified(url), date > (newest ?? .distantPast) { newest = date }
        }
        return newest
    }

    static func modified(_ url: URL) -> Date? {
        (try? url.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
    }

    /// `swift build --product prospero-studio` in the checkout, with this build's scratch path and configuration.
    static func build(_ checkout: Checkout) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build", "--package-path", checkout.root.path, "--scratch-path", checkout.scratch.path,
                             "-c", checkout.configuration, "--product", name]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.standardError
        do { try process.run() } catch {
            throw Unavailable(description: "cannot run swift build for \(name): \(error)")
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw Unavailable(description: "swift build --product \(name) failed (exit \(process.terminationStatus)); its output is above")
        }
    }
}
