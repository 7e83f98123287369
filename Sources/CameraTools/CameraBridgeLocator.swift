import Foundation

/// Finds the camera bridge's Python (the venv scripts/camera-setup makes) and its script.
///
/// Order: `PROSPERO_CAMERA_VENV` / `PROSPERO_CAMERA_SCRIPT`; else `.venv-camera/bin/python` and
/// `scripts/camera/prospero_camera.py` in the places that belong to the running executable, found from its real
/// path (`/proc/self/exe`, symbolic links resolved), first one that has the file:
/// 1. the package checkout it was built in: the executable is `ROOT/SCRATCH/CONFIGURATION/NAME` or
///    `ROOT/SCRATCH/TRIPLE/CONFIGURATION/NAME` (CONFIGURATION `release` or `debug`, as SwiftPM lays out
///    `.build/x86_64-unknown-linux-gnu/release/prospero`) and `ROOT/Package.swift` exists;
/// 2. an installation: the executable is `PREFIX/bin/NAME`, and the bridge is in `PREFIX/share/prospero`
///    (`scripts/camera/prospero_camera.py` and `.venv-camera` copied there as they are in a checkout).
///
/// Never the working directory or a directory above it, nor a path from `argv[0]`: a Python interpreter planted
/// in any parent of where the user happens to run the command would otherwise run with the user's rights. A
/// place other users may write (mode o+w) or replace, or that belongs to someone other than the executable's owner
/// or root, is not used either.
public struct CameraBridgeLocator: Sendable, Equatable {
    public let python: String
    public let script: String

    /// Where the script and the venv are, relative to each place the bridge is looked for.
    public static let scriptPath = "scripts/camera/prospero_camera.py"
    public static let venvPath = ".venv-camera"

    public init(python: String, script: String) {
        self.python = python
        self.script = script
    }

    /// The venv's Python and the script, or ``CameraBridgeUnavailable`` saying what to do.
    /// - Parameter executable: the running executable (default: this process's, from `/proc/self/exe`); the
    ///   places searched are derived from it alone (``searchDirectories(executable:)``).
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment,
                              executable: URL? = runningExecutable()) throws(CameraBridgeUnavailable) -> CameraBridgeLocator {
        let fm = FileManager.default
        let places = executable.map(searchDirectories(executable:)) ?? []
        func search(_ relative: String, executable: Bool) -> String? {
            for place in places {
                let candidate = place.appendingPathComponent(relative).path
                if executable ? fm.isExecutableFile(atPath: candidate) : fm.isReadableFile(atPath: candidate) { return candidate }
            }
            return nil
        }
        let script = environment["PROSPERO_CAMERA_SCRIPT"] ?? search(scriptPath, executable: false)
        guard let script, fm.isReadableFile(atPath: script) else {
            throw CameraBridgeUnavailable(message: """
                cannot find \(scriptPath) in the checkout this executable was built in, nor in PREFIX/share/prospero \
                beside an installed PREFIX/bin: set PROSPERO_CAMERA_SCRIPT
                """)
        }
        let python: String?
        if let venv = environment["PROSPERO_CAMERA_VENV"] {
            python = venv + "/bin/python"
        } else {
            python = search(venvPath + "/bin/python", executable: true)
        }
        guard let python, fm.isExecutableFile(atPath: python) else {
            throw CameraBridgeUnavailable(message: """
                no camera environment found. Make it once with scripts/camera-setup in the Prospero checkout \
                (needs python3 3.9–3.12 and venv; Debian: apt-get install python3-venv libgl1), \
                or point PROSPERO_CAMERA_VENV at one
                """)
        }
        return CameraBridgeLocator(python: python, script: script)
    }

    /// This process's executable, symbolic links resolved; nil when the system does not say (then nothing is
    /// searched: a relative `argv[0]` would name a file in the working directory).
    public static func runningExecutable() -> URL? {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? Bundle.main.executablePath
        guard let path, path.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: path)
    }

    /// The places the bridge is looked for when no variable names it, best first: the checkout `executable` was
    /// built in, then `PREFIX/share/prospero` of an installed `PREFIX/bin/NAME` (see the type's notes). Only
    /// directories that exist and that no other user may write are listed.
    public static func searchDirectories(executable: URL) -> [URL] {
        let real = executable.resolvingSymlinksInPath()
        guard real.path.hasPrefix("/") else { return [] }
        let bin = real.deletingLastPathComponent()
        let owner = ownerAndMode(real)?.owner
        var places: [URL] = []
        if ["release", "debug"].contains(bin.lastPathComponent) {
            // ROOT/SCRATCH/CONFIGURATION, then ROOT/SCRATCH/TRIPLE/CONFIGURATION.
            let scratchParent = bin.deletingLastPathComponent().deletingLastPathComponent()
            for root in [scratchParent, scratchParent.deletingLastPathComponent()] where root.path != "/"
                && FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
                places.append(root)
                break
            }
        }
        if bin.lastPathComponent == "bin" {
            places.append(bin.deletingLastPathComponent().appendingPathComponent("share/prospero"))
        }
        return places.filter { isTrusted($0, executableOwner: owner) }
    }

    /// A directory that exists, belongs to the executable's owner or to root, and that other users cannot write;
    /// nor can they replace it: its parent is not writable by others either, unless it is sticky (as `/tmp` is:
    /// there only its owner may rename or remove it).
    static func isTrusted(_ directory: URL, executableOwner: UInt32?) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue,
              let own = ownerAndMode(directory), own.owner == 0 || own.owner == executableOwner, own.mode & 0o002 == 0,
              let parent = ownerAndMode(directory.deletingLastPathComponent()) else { return false }
        return parent.mode & 0o002 == 0 || parent.mode & 0o1000 != 0
    }

    static func ownerAndMode(_ url: URL) -> (owner: UInt32, mode: Int)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              let owner = (attributes[.ownerAccountID] as? NSNumber)?.uint32Value,
              let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue else { return nil }
        return (owner, mode)
    }
}
