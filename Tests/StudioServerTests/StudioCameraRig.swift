import CameraBridge
import CameraTools
import Foundation
import LiveHost
import LiveHostPOSIX
import Studio

/// A studio whose camera desk tracks with the project's own bridge, its faces and hands entering a live input
/// loop on its own thread beside a UDP port, as `prospero-studio` wires them: what every camera test starts.
final class StudioCameraRig {
    /// The bridge's venv Python and script.
    let tools: CameraBridgeLocator
    let camera: StudioCameraDesk
    let studio: StudioTestServer
    /// The live input loop the camera's faces and hands enter (its status counts them).
    let input: LiveHost
    private let inputDone = LiveStop()

    init(instruments: [any StudioInstrument]) throws {
        let tools = CameraBridgeLocator(python: HecateCameraBrowserTests.python,
                                        script: HecateCameraBrowserTests.root.appendingPathComponent("scripts/camera/prospero_camera.py").path)
        self.tools = tools
        camera = StudioCameraDesk(bridge: CameraBridgeProcess(locate: { tools }))
        do {
            studio = try StudioTestServer(instruments: instruments, camera: camera)
        } catch {
            camera.stop()
            throw error
        }
        input = LiveHost(source: StudioSourceTracker(MergedDatagramSource([UDPDatagramSource(host: "127.0.0.1", port: 0), camera.input])),
                         instrument: StudioLiveInstrument(session: studio.session), stop: LiveStop())
        do {
            try input.start()
        } catch {
            studio.stop()
            camera.stop()
            throw error
        }
        let (input, done) = (input, inputDone)
        Thread.detachNewThread {
            _ = try? input.run()
            done.request(.requested)
        }
    }

    var session: StudioSession { studio.session }

    /// Ends the input loop, then the server, then the bridge.
    func stop() {
        input.stop.request(.requested)
        _ = inputDone.wait(timeout: .seconds(5))
        studio.stop()
        camera.stop()
    }
}
