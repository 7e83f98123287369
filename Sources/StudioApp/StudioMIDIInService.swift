import LiveHost
import ServiceLifecycle
import Studio
import StudioServer

/// MIDI learn and learned controllers hear `midi_in`'s control changes: the JACK driver's delivery thread, which
/// sleeps until the audio thread rings (nothing polls), hands each to the session, from start until the studio
/// stops listening to MIDI (after its notes ended and its settings were saved).
final class StudioMIDIInService: Service, Sendable {
    private let driver: StudioJACKDriver
    private let session: StudioSession
    private let stop = LiveStop()
    private let studio: LiveStop

    init(driver: StudioJACKDriver, session: StudioSession, studio: LiveStop) {
        self.driver = driver
        self.session = session
        self.studio = studio
    }

    func run() async {
        let session = self.session
        let ended = driver.deliverControlChanges(to: { session.receiveMIDI($0) }, stop: stop)
        await StudioPart.stopping(stop, reason: studio) { await StudioPart.wait(for: ended) }
    }
}
