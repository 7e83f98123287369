import Foundation
import LiveHost
import ProsperoTestSupport
import Studio
import StudioServer

/// A studio served in-process on a free loopback port (with the test tone unless `instruments` says
/// otherwise), stopped by `stop()`.
final class StudioTestServer: @unchecked Sendable {
    let server: StudioServer
    let session: StudioSession
    /// The audio driver the session was given (`audio`), if any.
    let audio: (any StudioAudioOutput)?
    let stopper = LiveStop()
    let finished = LiveStop()
    let port: Int

    /// - Parameter audio: makes the audio driver from the session's fan-out, the server's meter tap and the engines.
    init(instruments: [any StudioInstrument] = [StudioToneInstrument()], token: String? = nil,
         configure: (inout StudioServerOptions) -> Void = { _ in },
         audio: ((StudioFanOut, StudioMeterTap, [any StudioAudioEngine]) -> any StudioAudioOutput)? = nil,
         camera: StudioCameraDesk? = nil) throws {
        let fanOut = StudioFanOut(), tap = StudioMeterTap()
        let driver = audio?(fanOut, tap, instruments.map(\.audio))
        self.audio = driver
        session = StudioSession(instruments: instruments, audio: driver, fanOut: fanOut, camera: camera)
        var options = StudioServerOptions()
        options.port = 0
        options.token = token
        let executor = DispatchTaskExecutor(label: "studio-test-server")
        options.executor = executor
        configure(&options)
        server = StudioServer(session: session, options: options, resources: try StudioResources.bundled(), tap: tap)
        let (server, stopper, finished) = (server, stopper, finished)
        Task.detached(executorPreference: executor) {
            try? await server.run(stop: stopper)
            finished.request(.requested)
        }
        guard let port = server.waitUntilListening(timeout: .seconds(20)) else {
            stopper.request(.requested)
            throw RawClient.Failure("the studio server did not start")
        }
        self.port = port
    }

    var host: String { "127.0.0.1:\(port)" }
    var origin: String { "http://127.0.0.1:\(port)" }

    func stop() {
        stopper.request(.requested)
        finished.wait(timeout: .seconds(5))
    }

    /// A WebSocket that passed the upgrade (same origin), after hello and welcome.
    func socket(subscribe: String = #"["state","meters"]"#) throws -> (RawClient, [String: Any]) {
        let client = try RawClient(port: port)
        let response = try client.upgrade(host: host, origin: origin)
        guard response.status == 101 else { throw RawClient.Failure("upgrade answered \(response.status)") }
        client.sendText(#"{"type":"hello","client":null,"subscribe":\#(subscribe)}"#)
        guard let welcome = client.readJSON(until: { $0["type"] as? String == "welcome" }) else {
            throw RawClient.Failure("no welcome")
        }
        return (client, welcome)
    }
}
