import Foundation

/// Finds the camera bridge's Python (the venv scripts/camera-setup makes) and its script.
///
/// Order: `PROSPERO_CAMERA_VENV` / `PROSPERO_CAMERA_SCRIPT`, then `.venv-camera` and
/// `scripts/camera/prospero_camera.py` in the current directory or any directory above it or above
/// this executable (a checkout's `.build/release/prospero` finds its own checkout).
public struct CameraBridgeLocator: Sendable, Equatable {
    public let python: String
    public let script: String

    public init(python: String, script: String) {
        self.python = python
        self.script = script
    }

    /// The venv's Python and the script, or ``CameraBridgeUnavailable`` saying what to do.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CameraBridgeUnavailable) -> CameraBridgeLocator {
        let fm = FileManager.default
        let starts = [fm.currentDirectoryPath, URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().path]
        func search(_ relative: String, executable: Bool) -> String? {
            for start in starts {
                var dir = URL(fileURLWithPath: start)
                while true {
                    let candidate = dir.appendingPathComponent(relative).path
                    if executable ? fm.isExecutableFile(atPath: candidate) : fm.isReadableFile(atPath: candidate) { return candidate }
                    let parent = dir.deletingLastPathComponent()
                    if parent.path == dir.path { break }
                    dir = parent
                }
            }
            return nil
        }
        let script = environment["PROSPERO_CAMERA_SCRIPT"] ?? search("scripts/camera/prospero_camera.py", executable: false)
        guard let script, fm.isReadableFile(atPath: script) else {
            throw CameraBridgeUnavailable(message: "cannot find scripts/camera/prospero_camera.py: run prospero from its checkout, or set PROSPERO_CAMERA_SCRIPT")
        }
        let python: String?
        if let venv = environment["PROSPERO_CAMERA_VENV"] {
            python = venv + "/bin/python"
        } else {
            python = search(".venv-camera/bin/python", executable: true)
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
}
