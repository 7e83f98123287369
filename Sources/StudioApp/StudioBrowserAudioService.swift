import LiveHost
import ServiceLifecycle
import StudioServer

/// Browser audio as a service: the ``StudioBrowserDriver``'s render thread (and its sender, when the blocks are
/// not handed on from the server's event loop) from start to the studio's last step.
final class StudioBrowserAudioService: Service, Sendable {
    private let driver: StudioBrowserDriver
    private let stop = LiveStop()
    private let studio: LiveStop

    init(driver: StudioBrowserDriver, studio: LiveStop) {
        self.driver = driver
        self.studio = studio
    }

    func run() async {
        driver.start(stop: stop)
        await StudioPart.stopping(stop, reason: studio) { await StudioPart.wait(for: stop) }
        let driver = self.driver
        _ = await StudioPart.onThread("studio browser stop") { driver.waitUntilStopped() }
    }
}
