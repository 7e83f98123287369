import CameraBridge
import CameraTools
import Foundation
import LiveHost
import LiveHostPOSIX
import Studio

extension StudioConfiguration {
    /// Refuses what cannot run, naming the option as the command spells it (`--port must be 0…65535`).
    public func validate() throws(StudioAppError) {
        func invalid(_ message: String) -> StudioAppError { StudioAppError(.invalid, message) }
        guard (0...65535).contains(port) else { throw invalid("--port must be 0…65535") }
        guard (0...65535).contains(oscPort) else { throw invalid("--osc-port must be 0…65535") }
        guard (1...16).contains(browserGroup) else { throw invalid("--browser-group must be 1…16 blocks, not \(browserGroup)") }
        if let token, !StudioToken.isValid(token) { throw invalid("the token must be 8…128 letters, digits, '-', '_' or '.'") }
        if let tls {
            for file in [tls.certificate, tls.key] where !FileManager.default.isReadableFile(atPath: file) {
                throw invalid("--tls: cannot read '\(file)'")
            }
        }
        _ = try oscAllowList()
        if let channel = hecateMIDIChannel {
            guard (1...16).contains(channel) else { throw invalid("--hecate-midi-channel must be 1…16") }
            if audio == .browser || audio == .none {
                throw invalid("--hecate-midi sends on JACK midi_out: it needs --audio jack (or auto with a JACK server)")
            }
        }
        if let duration, !(duration > 0 && duration.isFinite) {
            throw invalid("--duration must be a positive number of seconds, not \(duration)")
        }
        if let camera {
            do throws(CameraBridgeUnavailable) {
                _ = try CameraBridgeLocator.locate(environment: environment)
                _ = try CameraDeviceProcess.resolve(camera)
            } catch { throw invalid(error.message) }
        }
    }

    /// Who may send OSC: ``allow`` (with loopback) when given, else the default for ``oscHost``.
    public func oscAllowList() throws(StudioAppError) -> SenderAllowList {
        guard !allow.isEmpty else { return .defaultFor(bindHost: oscHost) }
        do {
            var list = try SenderAllowList(parsing: allow)
            list.formUnion(.loopback)
            return list
        } catch { throw StudioAppError(.invalid, "--allow: \(error)") }
    }
}
