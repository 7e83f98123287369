import Foundation

/// Builds the picture of a render: panels stacked over one time axis (waveform, spectrogram, signal
/// lanes, a chord or section timeline, a piano roll, event markers), a title and a caption line.
///
/// Any command that renders audio can draw its picture with it: analyse the audio with a
/// `ProgrammeAnalyzer` created with `pictureColumns: RenderPlot.plotColumns(width:)`, then
/// `RenderPlot.programme(...)`, add panels of its own, and write `document().encoded(as:)`.
public struct RenderPlot: Sendable {
    /// Left column for panel labels, right margin, in pixels.
    public static let labelWidth = 124.0
    public static let rightMargin = 16.0

    /// Columns of the data area for a picture `width` pixels wide (what to give `ProgrammeAnalyzer`).
    public static func plotColumns(width: Int) -> Int { max(16, width - Int(labelWidth + rightMargin)) }

    enum Panel: Sendable {
        case waveform(minimum: [[Float]], maximum: [[Float]])
        case spectrogram(decibels: [[Float]], lowest: Double, highest: Double)
        case lanes(String, [PlotLane])
        case timeline(String, [PlotSegment])
        case pianoRoll(PianoRoll)
        case markers(String, [PlotMarker])

        var height: Double {
            switch self {
            case .waveform(let minimum, _): return minimum.count > 1 ? 150 : 100
            case .spectrogram: return 200
            case .lanes(_, let lanes): return Double(max(1, lanes.count)) * 26 + 8
            case .timeline: return 34
            case .pianoRoll(let roll):
                let keys = roll.keyRange.map { $0.count } ?? 12
                return min(320, max(90, Double(keys) * 5 + 10))
            case .markers: return 70
            }
        }
    }

    /// Title line (drawn large) and caption (figures, drawn small).
    public var title: String
    public var caption: String
    /// Seconds the time axis spans.
    public let duration: Double
    /// Picture width in pixels.
    public let width: Int
    var panels: [Panel] = []

    public init(title: String, caption: String = "", duration: Double, width: Int = 1200) {
        self.title = title
        self.caption = caption
        self.duration = duration.isFinite && duration > 0 ? duration : 1
        self.width = min(max(width, 320), 8192)
    }

    /// The usual picture of a programme: waveform and spectrogram from `analyzer` (created with picture
    /// columns) and the loudness figures as the caption.
    public static func programme(title: String, analyzer: ProgrammeAnalyzer, width: Int = 1200) -> RenderPlot {
        let report = analyzer.report
        var plot = RenderPlot(title: title, caption: report.summary + String(format: ", %.2f s", report.durationSeconds),
                              duration: report.durationSeconds, width: width)
        if let overview = analyzer.overview { plot.addWaveform(overview) }
        if let spectrogram = analyzer.spectrogram { plot.addSpectrogram(spectrogram) }
        return plot
    }

    public mutating func addWaveform(_ overview: WaveformOverview) {
        panels.append(.waveform(minimum: overview.minimum, maximum: overview.maximum))
    }

    public mutating func addSpectrogram(_ spectrogram: Spectrogram) {
        panels.append(.spectrogram(decibels: spectrogram.decibels, lowest: spectrogram.lowestFrequency, highest: spectrogram.highestFrequency))
    }

    /// Signals 0…1 over time, one row each (e.g. face blendshapes and head angles).
    public mutating func addLanes(_ title: String, lanes: [PlotLane]) { panels.append(.lanes(title, lanes)) }

    /// Labelled stretches (e.g. the chord timeline).
    public mutating func addTimeline(_ title: String, segments: [PlotSegment]) { panels.append(.timeline(title, segments)) }

    public mutating func addPianoRoll(_ roll: PianoRoll) { panels.append(.pianoRoll(roll)) }

    /// Point events (e.g. touches, haptic events).
    public mutating func addMarkers(_ title: String, markers: [PlotMarker]) { panels.append(.markers(title, markers)) }
}
