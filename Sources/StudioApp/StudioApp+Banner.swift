import CameraTools
import LiveHostPOSIX
import Studio
import StudioServer

extension StudioApp {
    /// What the studio says once it serves: its URL (with the token), the LAN URL and QR code, the audio and
    /// camera notes, the instruments and the OSC port.
    func printBanner() {
        let c = configuration
        let server = assembly.server.server
        let session = assembly.session
        let options = assembly.serverOptions
        let browser = assembly.browser
        let lanHost = StudioSecurity.isLoopback(c.host) ? nil : (c.host == "0.0.0.0" || c.host == "::" ? StudioNetwork.localAddresses().first : c.host)
        session.info = ["osc": .string("udp \(assembly.tracker.localAddress)"), "lanURL": lanHost.map { .string(server.url(host: $0)) } ?? .null,
                        "camera": assembly.ownCamera.map { .string($0.source.name) } ?? .null]
        // Bound to every interface: this machine opens it on loopback; the LAN URL follows.
        StandardOutput.line("studio: \(server.url(host: c.host == "0.0.0.0" ? "127.0.0.1" : c.host == "::" ? "::1" : nil))")
        // The token is printed once, in the line above: logs that keep the rest never hold it.
        if let lanHost, lanHost != c.host {
            StandardOutput.line("studio: on the LAN: \(server.url(host: lanHost, withToken: false))"
                + (options.token == nil ? "" : " (with the ?token=… above, or scan the code)"))
        }
        if options.tls == nil && !StudioSecurity.isLoopback(c.host) && browser == nil {
            StandardOutput.line("studio: a phone on plain HTTP is a controller (sound from JACK here); browser audio needs https (--tls)")
        }
        if browser != nil {
            StandardOutput.line("studio: browser audio: \(StudioBrowserDriver.defaultBlockFrames)-frame blocks at \(Int(StudioBrowserDriver.defaultSampleRate)) Hz; "
                + "open the page and tap Listen" + (assembly.jack == nil && c.audio == .auto ? " (no JACK server runs)" : ""))
            if options.tls == nil && !StudioSecurity.isLoopback(c.host) {
                StandardOutput.line("studio: browser audio needs a secure context: over plain HTTP only a page on this machine (http://127.0.0.1:…) "
                    + "can listen; for phones serve HTTPS with --tls CERT KEY (mkcert)")
            }
        }
        // The pages' cameras start their bridge on the first frame; say now whether they can.
        do {
            _ = try CameraBridgeLocator.locate(environment: c.environment)
            StandardOutput.line("studio: page cameras: Use camera on Hecate, Camera on Hands (the camera bridge starts with the first frame; "
                + "phones need https, --tls)")
            if let own = assembly.ownCamera {
                StandardOutput.line("studio: camera \(own.source.name): its faces or hands play the active instrument; Hecate's and Hands' pages show it")
            }
        } catch {
            StandardOutput.line("studio: page cameras unavailable: \(error.message)")
        }
        let names = session.instrumentList.map(\.name).joined(separator: ", ")
        StandardOutput.line("studio: instruments: \(names.isEmpty ? "none registered" : names); "
            + "audio: \(session.audioStatus.backend.rawValue); OSC input on udp \(assembly.tracker.localAddress); Ctrl-C to stop")
        if !c.noQR, let lanHost, let qr = try? StudioQRCode(text: server.url(host: lanHost)) {
            StandardOutput.line("studio: scan to open on a phone (\(server.url(host: lanHost, withToken: false))\(options.token == nil ? "" : " with the token")):")
            StandardOutput.line(qr.terminalText)
        }
    }
}
