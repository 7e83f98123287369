import Ariel
import Enobarbus
import Foundation
import Hecate
import Horatio
import Oberon

extension HecateCommand {
    /// The face signals Hecate's voicing and sculpting tables read, as 0…1 lanes over time
    /// (head angles mapped from −45…45°), each performance placed at its start in the file.
    static func faceLanes(_ recording: Recording, starts: [Double]) -> [PlotLane] {
        let shapes: [(String, (FaceFrame) -> Double)] = [
            ("JAW", { Double($0.blendshapes[.jawOpen]) }),
            ("BROW", { Double($0.blendshapes[.browInnerUp]) }),
            ("CHEEK", { Double($0.blendshapes[.cheekPuff]) }),
            ("PUCKER", { Double($0.blendshapes[.mouthPucker]) }),
            ("SMILE", { Double($0.blendshapes[.mouthSmileLeft] + $0.blendshapes[.mouthSmileRight]) / 2 }),
            ("TURN", { (Double($0.head.yaw) + 45) / 90 }),
            ("NOD", { (Double($0.head.pitch) + 45) / 90 }),
            ("TILT", { (Double($0.head.roll) + 45) / 90 }),
        ]
        var lanes = shapes.map { PlotLane(name: $0.0, points: []) }
        for start in starts {
            for frame in recording.frames {
                guard case .face(let face) = frame else { continue }
                for (k, shape) in shapes.enumerated() {
                    lanes[k].points.append(PlotSample(time: start + HecateRecordingRender.lead + face.timestamp, value: shape.1(face)))
                }
            }
        }
        return lanes
    }

    /// The chord sequence as segments, each performance placed at its start and ending at `ends`.
    static func chordSegments(_ chords: [(Double, NashvilleDegree)], key: String, starts: [Double], ends: [Double]) -> [PlotSegment] {
        var segments: [PlotSegment] = []
        for (start, end) in zip(starts, ends) {
            for (k, chord) in chords.enumerated() {
                let from = start + HecateRecordingRender.lead + chord.0
                let to = k + 1 < chords.count ? start + HecateRecordingRender.lead + chords[k + 1].0 : end
                if to > from { segments.append(PlotSegment(start: from, end: min(to, end), label: "\(chord.1) IN \(key)")) }
            }
        }
        return segments
    }

    /// Loudness line and, with `plot`, the picture of a Hecate render: waveform, spectrogram, face lanes, chords.
    static func reportAndPlot(_ audio: (left: [Float], right: [Float]), sampleRate: Double, plot: String?, title: String,
                              recording: Recording, setup: HecateSetup, starts: [Double], ends: [Double]) throws {
        let analyzer = AudioPicture.analyze([audio.left, audio.right], sampleRate: sampleRate, picture: plot != nil)
        try report(analyzer, plot: plot, title: title, recording: recording, setup: setup, starts: starts, ends: ends)
    }

    /// The same for a render already written to `file`, read back in blocks.
    static func reportAndPlot(file: String, plot: String?, title: String,
                              recording: Recording, setup: HecateSetup, starts: [Double], ends: [Double]) throws {
        let analyzer = try AudioPicture.analyze(file: file, picture: plot != nil).analyzer
        try report(analyzer, plot: plot, title: title, recording: recording, setup: setup, starts: starts, ends: ends)
    }

    private static func report(_ analyzer: ProgrammeAnalyzer, plot: String?, title: String,
                               recording: Recording, setup: HecateSetup, starts: [Double], ends: [Double]) throws {
        print(AudioPicture.loudnessLine(analyzer.report))
        guard let plot else { return }
        var picture = RenderPlot.programme(title: title, analyzer: analyzer, width: AudioPicture.width)
        picture.addLanes("Face", lanes: faceLanes(recording, starts: starts))
        picture.addTimeline("Chords", segments: chordSegments(setup.chords, key: "\(setup.key)", starts: starts, ends: ends))
        try AudioPicture.write(picture, to: plot)
    }
}
