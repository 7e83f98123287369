import Synchronization

/// The backend of a host without live audio (a render to a file, a test, a machine without a
/// JACK server): fixed sample rate and block size, no ports, no xruns; the renderer counts its
/// blocks with ``rendered(frames:)``.
public final class OfflineAudioBackend: LiveAudioBackend {
    private let state: Mutex<AudioHostStatus>

    /// - Parameters:
    ///   - name: what the status calls it ("render", "hisynth render").
    ///   - sampleRate: Hz.
    ///   - blockFrames: frames per rendered block.
    public init(name: String = "offline", sampleRate: Int, blockFrames: Int) {
        state = Mutex(AudioHostStatus(backend: .offline, clientName: name, sampleRate: sampleRate, periodFrames: blockFrames))
    }

    public var audioStatus: AudioHostStatus { state.withLock { $0 } }

    /// Counts one rendered block of `frames` frames.
    public func rendered(frames: Int) {
        state.withLock {
            $0.periods += 1
            $0.frames += frames
            $0.isRunning = true
        }
    }

    /// Marks the render finished.
    public func finished() {
        state.withLock { $0.isRunning = false }
    }
}
