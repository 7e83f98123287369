import CameraBridge
import Enobarbus
import LiveHost
import LiveHostPOSIX
import ServiceLifecycle
import Studio

/// The cameras as a service: the pages' camera bridge (started by the first frame a page sends) and, with
/// `--camera`, this machine's camera process, whose frames the camera desk tracks and previews like a page's.
/// Both end when the studio stops, before its input does.
final class StudioCameraService: Service, Sendable {
    private let desk: StudioCameraDesk
    private let own: CameraDeviceProcess?

    init(desk: StudioCameraDesk, own: CameraDeviceProcess?) {
        self.desk = desk
        self.own = own
    }

    func run() async {
        let desk = self.desk
        own?.start(frames: { jpeg, width, height in desk.submitStudioFrame(jpeg: jpeg, width: width, height: height, now: MonotonicClock.now()) },
                   log: { StandardOutput.line("studio: \($0)") })
        await StudioPart.untilShutdown()
        let own = self.own
        // Stopping a process waits for it to exit: not on Swift's cooperative threads.
        _ = await StudioPart.onThread("studio cameras stop") {
            own?.stop()
            desk.stop()
            return true
        }
    }
}
