import Foundation
import Glibc
import ProsperoTestSupport
import Testing

/// `prospero studio` runs `prospero-studio` in its place: the same process, every argument passed on, the
/// studio never built at run time, and a clear error where it cannot be found.
@Suite("prospero studio starts prospero-studio")
struct StudioLauncherTests {
    @Test("every argument, --help included, reaches the studio's own parser")
    func passesEveryArgument() throws {
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable (swift build)")
        let help = try TestPeers.runBlocking(prospero.path, ["studio", "--help"], timeout: 120)
        #expect(help.status == 0, "\(help.output)")
        #expect(help.output.contains("USAGE: prospero studio") && help.output.contains("--hecate-midi"), "\(help.output)")
        let wrong = try TestPeers.runBlocking(prospero.path, ["studio", "--port", "70000"], timeout: 120)
        #expect(wrong.status != 0 && wrong.output.contains("--port must be 0…65535"), "\(wrong.output)")
    }

    @Test("an installed prospero without prospero-studio beside it says what is missing")
    func missingStudio() throws {
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable (swift build)")
        let bin = try Self.scratchDirectory().appendingPathComponent("bin")
        defer { try? FileManager.default.removeItem(at: bin.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let copy = try Self.place(prospero, in: bin)
        let result = try TestPeers.runBlocking(copy.path, ["studio", "--audio", "none"], timeout: 60)
        #expect(result.status != 0)
        #expect(result.output.contains("prospero-studio is not beside \(copy.path)"), "\(result.output)")
    }

    @Test("in a checkout: it replaces the process with the studio beside it, whatever the sources' times; missing, it names the build command")
    func checkoutRunsTheBuiltStudioAndNeverBuilds() throws {
        let prospero = try TestPeers.require(TestPeers.prospero, "the prospero executable (swift build)")
        let root = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        let bin = root.appendingPathComponent(".build/x86_64-unknown-linux-gnu/release")
        let sources = root.appendingPathComponent("Sources/prospero-studio")
        try manager.createDirectory(at: bin, withIntermediateDirectories: true)
        try manager.createDirectory(at: sources, withIntermediateDirectories: true)
        // Not a manifest SwiftPM can read: had the launcher tried a build, it would fail and say so.
        try Data("this is not a package manifest\n".utf8).write(to: root.appendingPathComponent("Package.swift"))
        let source = sources.appendingPathComponent("StudioCommand.swift")
        try Data("// studio\n".utf8).write(to: source)
        let copy = try Self.place(prospero, in: bin)

        // Missing: the reason and the command that builds it, no usage text, no build.
        let missing = try TestPeers.runBlocking(copy.path, ["studio", "--help"], timeout: 60)
        #expect(missing.status != 0)
        #expect(missing.output.contains("prospero-studio is not built beside \(copy.path)"), "\(missing.output)")
        #expect(missing.output.contains("swift build --package-path \(root.path) -c release --product prospero-studio"), "\(missing.output)")
        #expect(!missing.output.contains("USAGE") && !missing.output.contains("Compiling"), "\(missing.output)")

        let studio = bin.appendingPathComponent("prospero-studio")
        try Data("#!/bin/sh\necho \"studio pid $$ args $*\"\n".utf8).write(to: studio)
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: studio.path)
        // Sources newer than the studio: still the studio as built (a build is the user's to start).
        try manager.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: source.path)

        // The script prints its own pid: the launcher's, when the launcher replaced itself with it.
        let process = Process()
        process.executableURL = copy
        process.arguments = ["studio", "--help", "--port", "9"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(printed.contains("studio pid \(process.processIdentifier) args --help --port 9"), "\(printed)")
    }

    static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("launcher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// `prospero` at `directory` (a hard link where the file system allows one: the executable is large).
    static func place(_ prospero: URL, in directory: URL) throws -> URL {
        let target = directory.appendingPathComponent("prospero")
        do { try FileManager.default.linkItem(at: prospero, to: target) } catch {
            try FileManager.default.copyItem(at: prospero, to: target)
        }
        return target
    }
}
