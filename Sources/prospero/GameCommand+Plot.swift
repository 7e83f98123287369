import Enobarbus
import Foundation
import Games
import Haptics
import Oberon

extension GameSimulateCommand {
    /// Each finger's touch as a span from its first frame to its lift (an `ended` line or its last frame),
    /// drawn at the height where it landed (1 at the top of the screen, as the player sees it).
    static func touchMarkers(_ recording: Recording) -> [PlotMarker] {
        var open: [Int: (start: Double, end: Double, row: Double)] = [:]
        var markers: [PlotMarker] = []
        func close(_ slot: Int) {
            guard let span = open.removeValue(forKey: slot) else { return }
            markers.append(PlotMarker(time: span.start, duration: span.end - span.start, row: span.row, label: "touch \(slot)"))
        }
        for frame in recording.frames {
            switch frame {
            case .touch(let t):
                if open[t.slot] == nil {
                    open[t.slot] = (t.timestamp, t.timestamp, 1 - Double(min(max(t.y, 0), 1)))
                } else {
                    open[t.slot]?.end = t.timestamp
                }
            case .ended(.touch(let slot), let time):
                open[slot]?.end = time
                close(slot)
            default:
                break
            }
        }
        for slot in open.keys.sorted() { close(slot) }
        return markers.sorted { $0.time < $1.time }
    }

    /// Each haptic event at its time, as long as it lasts, as high as its intensity (0…1).
    static func hapticMarkers(_ pattern: HapticPattern) -> [PlotMarker] {
        pattern.events.map { e in
            PlotMarker(time: e.time, duration: e.effectiveDuration, row: min(max(e.intensity, 0), 1),
                       label: e.type == .hapticTransient ? "transient" : "continuous")
        }
    }

    /// The loudness line, and with `plot` the picture: waveform, spectrogram, touches and haptic events.
    static func reportAndPlot(_ result: GameSession.Result, recording: Recording, kind: GameKind, plot: String?) throws {
        let analyzer = AudioPicture.analyze([result.left, result.right], sampleRate: result.sampleRate, picture: plot != nil)
        print(AudioPicture.loudnessLine(analyzer.report))
        guard let plot else { return }
        var picture = RenderPlot.programme(title: kind.title.uppercased(), analyzer: analyzer, width: AudioPicture.width)
        picture.addMarkers("Touches", markers: touchMarkers(recording))
        picture.addMarkers("Haptics", markers: hapticMarkers(result.haptics))
        try AudioPicture.write(picture, to: plot)
    }
}
