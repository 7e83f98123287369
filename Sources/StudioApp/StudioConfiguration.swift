import Foundation
import InstrumentSettings
import ProsperoJACK
import StudioServer

/// Everything `prospero studio` is asked for, as plain values: what ``StudioApp`` builds the studio from.
/// The command parses and maps its options into one; a test can write one by hand.
public struct StudioConfiguration: Sendable {
    /// Where the sound plays.
    public enum AudioMode: String, Sendable, CaseIterable {
        /// JACK when a server runs, else the browser.
        case auto
        /// JACK only (an error when no server runs).
        case jack
        /// Streamed to the pages that tap Listen.
        case browser
        /// Nothing renders.
        case none
    }

    /// Address to serve on: loopback (no token needed), a LAN address, or 0.0.0.0 / :: (every interface).
    public var host = "127.0.0.1"
    /// HTTP port, 0…65535 (0 picks a free one).
    public var port = 8080
    /// The access token (8…128 letters, digits, - _ .), required on any host, loopback too; nil: none on loopback,
    /// a random one beyond it. The front end fills it from a file or the environment (``chosenToken(file:environment:)``),
    /// never from its command line.
    public var token: String?
    /// Connection caps and timeouts of the web server.
    public var limits = StudioConnectionLimits()
    /// PEM certificate chain and key files: serve HTTPS.
    public var tls: (certificate: String, key: String)?
    public var audio = AudioMode.auto
    /// Browser audio: blocks rendered and sent together, 1…16.
    public var browserGroup = StudioBrowserDriver.defaultBlocksPerWake
    /// OSC input: the interface and UDP port (0…65535; 0 picks a free one).
    public var oscHost = "127.0.0.1"
    public var oscPort = 9000
    /// Networks OSC senders may come from when `oscHost` is beyond loopback (`192.168.1.0/24`, `10.0.0.7`, `any`);
    /// empty: the default for `oscHost`.
    public var allow: [String] = []
    /// Delay from an input's arrival to its sample (the live commands' `--input-delay`).
    public var inputDelay = JACKInputClock.Delay.standard
    /// The settings file (nil: the default path from the environment); read at start, saved after a change.
    public var settingsPath: String?
    /// Neither read nor save the settings file.
    public var noSettings = false
    /// Hecate also plays what it sounds as MIDI on JACK `midi_out`, on this channel 1…16 (nil: no MIDI out).
    public var hecateMIDIChannel: Int?
    /// This machine's camera (a /dev/videoN path, an index or a video file), tracked like a page's.
    public var camera: String?
    /// Do not print the QR code of the LAN URL.
    public var noQR = false
    /// The JACK client: server and client names, connections, reconnecting, callback timing. Its duration
    /// and signal handling are not used: the studio's one stop ends everything (``duration``).
    public var jack = LiveSessionOptions(handlesSignals: false)
    /// Stop after this many seconds (nil: until a signal).
    public var duration: Double?
    /// Hecate's packs (the built-in ones and the user's files, read by the front end) and what was wrong with
    /// the files it skipped (printed at start).
    public var hecatePacks = HecatePackLibrary()
    public var hecatePackProblems: [String] = []
    /// The environment: the settings file's and the camera bridge's default places.
    public var environment: [String: String] = ProcessInfo.processInfo.environment
    /// Where the studio's services and server prefer to run; nil is Swift's shared pool. A process whose other
    /// work blocks that pool's few threads (a test runner) gives the studio its own executor so that it still answers.
    public var executor: (any TaskExecutor)?

    public init() {}
}
