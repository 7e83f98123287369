import CameraTools
import Foundation
import ProsperoTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Where the camera bridge's Python and script are found: only from the running executable's own place (its
/// checkout's build directory, or PREFIX/bin beside PREFIX/share/prospero), never from the working directory.
@Suite("Camera bridge locator", .ownThread)
struct CameraBridgeLocatorTests {
    /// A fresh directory, removed by the caller.
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("camera-locator-\(UUID().uuidString)")
            .resolvingSymlinksInPath()
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func file(_ url: URL, _ text: String = "", executable: Bool = false) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        if executable { #expect(chmod(url.path, 0o755) == 0) }
    }

    /// A bridge (a Python that records that it ran, and a script) under `root`, as a checkout or an installation has it.
    static func plantBridge(in root: URL, marker: URL) throws {
        try file(root.appendingPathComponent(".venv-camera/bin/python"),
                 "#!/bin/sh\ntouch '\(marker.path)'\necho 'planted python ran' >&2\nexit 7\n", executable: true)
        try file(root.appendingPathComponent("scripts/camera/prospero_camera.py"), "raise SystemExit('planted script ran')\n")
    }

    @Test("a checkout's build directory (with the triple or without, reached through SwiftPM's symbolic link or any other) finds the checkout; an installed PREFIX/bin finds PREFIX/share/prospero; anything else finds nothing")
    func placesComeFromTheExecutable() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let checkout = dir.appendingPathComponent("checkout")
        try Self.file(checkout.appendingPathComponent("Package.swift"))
        let triple = checkout.appendingPathComponent(".build/x86_64-unknown-linux-gnu/release/prospero")
        try Self.file(triple, executable: true)
        try FileManager.default.createSymbolicLink(atPath: checkout.appendingPathComponent(".build/release").path,
                                                   withDestinationPath: "x86_64-unknown-linux-gnu/release")
        let plain = checkout.appendingPathComponent(".build-fuzz/debug/prospero")
        try Self.file(plain, executable: true)
        let linked = dir.appendingPathComponent("elsewhere/bin/prospero")
        try FileManager.default.createDirectory(at: linked.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: linked.path, withDestinationPath: checkout.appendingPathComponent(".build/release/prospero").path)
        for executable in [triple, checkout.appendingPathComponent(".build/release/prospero"), plain, linked] {
            #expect(CameraBridgeLocator.searchDirectories(executable: executable).map(\.path) == [checkout.path], "\(executable.path)")
        }

        let prefix = dir.appendingPathComponent("prefix")
        let installed = prefix.appendingPathComponent("bin/prospero")
        try Self.file(installed, executable: true)
        #expect(CameraBridgeLocator.searchDirectories(executable: installed).isEmpty)  // no share/prospero yet
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("share/prospero"), withIntermediateDirectories: true)
        #expect(CameraBridgeLocator.searchDirectories(executable: installed).map(\.path) == [prefix.appendingPathComponent("share/prospero").path])

        // A build directory of no checkout (no manifest two or three levels up), and a directory of no known layout.
        let loose = dir.appendingPathComponent("loose/scratch/release/prospero")
        try Self.file(loose, executable: true)
        #expect(CameraBridgeLocator.searchDirectories(executable: loose).isEmpty)
        let unpacked = dir.appendingPathComponent("unpacked/prospero")
        try Self.file(unpacked, executable: true)
        #expect(CameraBridgeLocator.searchDirectories(executable: unpacked).isEmpty)
    }

    @Test("an installation's bridge is used; one that other users can write is not")
    func installedBridge() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let prefix = dir.appendingPathComponent("prefix")
        let executable = prefix.appendingPathComponent("bin/prospero")
        try Self.file(executable, executable: true)
        let share = prefix.appendingPathComponent("share/prospero")
        try Self.plantBridge(in: share, marker: dir.appendingPathComponent("ran"))
        let found = try CameraBridgeLocator.locate(environment: [:], executable: executable)
        #expect(found == CameraBridgeLocator(python: share.appendingPathComponent(".venv-camera/bin/python").path,
                                             script: share.appendingPathComponent("scripts/camera/prospero_camera.py").path))
        // The variables still win.
        let named = try CameraBridgeLocator.locate(environment: ["PROSPERO_CAMERA_VENV": share.appendingPathComponent(".venv-camera").path,
                                                                 "PROSPERO_CAMERA_SCRIPT": "/dev/null"], executable: executable)
        #expect(named.script == "/dev/null" && named.python == share.appendingPathComponent(".venv-camera/bin/python").path)

        #expect(chmod(share.path, 0o777) == 0)
        #expect(throws: CameraBridgeUnavailable.self) { try CameraBridgeLocator.locate(environment: [:], executable: executable) }
        #expect(chmod(share.path, 0o755) == 0)
        #expect(chmod(share.deletingLastPathComponent().path, 0o777) == 0)  // others could replace share/prospero
        #expect(throws: CameraBridgeUnavailable.self) { try CameraBridgeLocator.locate(environment: [:], executable: executable) }
        #expect(chmod(share.deletingLastPathComponent().path, 0o1777) == 0)  // sticky, as /tmp: they cannot
        #expect(try CameraBridgeLocator.locate(environment: [:], executable: executable) == found)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("ran").path))
    }

    @Test("without an executable's place and without the variables, nothing is found, and the message says what to set")
    func nothingFound() {
        let error = #expect(throws: CameraBridgeUnavailable.self) { try CameraBridgeLocator.locate(environment: [:], executable: nil) }
        #expect(error?.message.contains("PROSPERO_CAMERA_SCRIPT") == true, "\(String(describing: error))")
        // This process is a build of this checkout: it finds the checkout's script.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let own = CameraBridgeLocator.runningExecutable().map(CameraBridgeLocator.searchDirectories(executable:)) ?? []
        #expect(own.map(\.standardizedFileURL.path) == [root.standardizedFileURL.path], "\(own)")
    }

    @Test("prospero camera run from below a directory with a planted .venv-camera and script runs neither",
          .enabled(if: CameraBridgeTests.binary != nil || TestPeers.required))
    func plantedParentNotUsed() throws {
        let prospero = try #require(CameraBridgeTests.binary)
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let marker = dir.appendingPathComponent("planted-python-ran")
        try Self.plantBridge(in: dir, marker: marker)
        let work = dir.appendingPathComponent("projects/song")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        // The planted bridge in the working directory itself too.
        try Self.plantBridge(in: work, marker: marker)
        let result = try CLIProcess.run(URL(fileURLWithPath: "/usr/bin/env"),
                                        ["-u", "PROSPERO_CAMERA_VENV", "-u", "PROSPERO_CAMERA_SCRIPT", prospero.path,
                                         "camera", "--face", "--once", "--device", "/dev/video-prospero-none"],
                                        directory: work)
        #expect(!FileManager.default.fileExists(atPath: marker.path), "the planted Python ran: \(result.error)")
        #expect(!result.error.contains("planted"), "\(result.error)")
        // The checkout's own bridge answers instead: no camera there, or no environment made.
        #expect(result.status == 2 && (result.error.contains("cannot open camera") || result.error.contains("no camera environment found")),
                "\(result.status): \(result.error)")
    }
}
