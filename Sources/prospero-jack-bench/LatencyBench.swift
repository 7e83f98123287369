import Enobarbus

/// `prospero-jack-bench latency`: UDP → out_left and UDP → midi_out of `prospero hands --output both` with the
/// default input delay: a hand at A4's zone as the native sender's bundle (as the camera bridge sends a frame),
/// 30 undisturbed events wanted, each from silence.
enum LatencyBench {
    static let wanted = 30
    /// At 64 and 128-frame periods on a machine busy with builds most events meet a stall longer than a period.
    static let maximumSends = 4 * wanted

    /// A hand at A4's zone in the bundle the native senders send; and its end.
    static let handOn = try! OSCEncoder.encode(.bundle(OSCBundle([.message(hand(height: 9.5 / 11))])))
    static let handEnd = try! OSCEncoder.encode(.bundle(OSCBundle([.message(OSCMessage("/prospero/hand/end", [.int32(0)]))])))

    /// An open right hand (`/prospero/hand`: slot, handedness, confidence, 21 landmarks x y z) with its middle finger's
    /// root at `height` (0 bottom … 1 top of the frame), at x 0.4: a wrist below four straight fingers and a thumb.
    static func hand(height: Double) -> OSCMessage {
        let x = 0.4, y = 1 - height
        var points = [(Double, Double)](repeating: (0, 0), count: 21)
        points[0] = (x, y + 0.06)
        let thumb = [(-0.03, 0.04), (-0.05, 0.02), (-0.07, 0.0), (-0.11, -0.01)]
        for (joint, offset) in thumb.enumerated() { points[1 + joint] = (x + offset.0, y + offset.1) }
        for (finger, dx) in [-0.045, -0.015, 0.015, 0.045].enumerated() {
            for (joint, dy) in [-0.015, -0.045, -0.06, -0.085].enumerated() { points[5 + 4 * finger + joint] = (x + dx, y + dy) }
        }
        return OSCMessage("/prospero/hand", [.int32(0), .string("right"), .float32(0.95)]
            + points.flatMap { [OSCArgument.float32(Float($0.0)), .float32(Float($0.1)), .float32(0)] })
    }

    /// `prospero hands --output both`. A 20 ms release instead of the default 300 ms: each event waits for the
    /// silence after the one before, and what is measured is the onset, which the release does not touch.
    static var hands: LiveSubject {
        LiveSubject(
        label: "`hands --output both`", client: "BenchHands",
        arguments: { port, midi in
            ["hands", "--output", "both", "--no-connect-audio", "--port", "\(port)", "--timeout", "5", "--midi-out", midi, "--release", "0.02"]
        },
        start: handOn, end: handEnd, measuresMIDI: true)
    }

    static func rows(on server: BenchServer) -> [BenchRow] {
        let delay = server.defaultInputDelay, period = server.period
        let audioFigure = "UDP → out_left, \(hands.label)", midiFigure = "UDP → midi_out, \(hands.label)"
        let run: LiveEventRun
        do {
            run = try LiveEventRun.measure(hands, on: server, wanted: wanted, maximumSends: maximumSends)
        } catch {
            return [audioFigure, midiFigure].map { BenchRow(figure: $0, period: period, sample: "", median: "", spread: "", failure: "\(error)") }
        }
        func row(_ figure: String, _ frames: [Int], all: [Int], _ checks: [BenchCheck]) -> BenchRow {
            BenchRow(figure: figure, period: period, sample: run.eventsLine, median: frames.median.map(Bench.frames) ?? "—",
                     spread: frames.spread, allEvents: "median \(all.median.map(String.init) ?? "—"), \(all.spread)", checks: checks)
        }
        return [
            row(audioFigure, run.audio, all: run.events.map(\.audio),
                BenchTargets.udpToAudio(run.audio, printed: run.printedInputToSound, delay: delay, period: period, wanted: wanted)),
            row(midiFigure, run.midi, all: run.events.compactMap(\.midi),
                BenchTargets.udpToMIDI(run.midi, delay: delay, period: period, wanted: wanted)),
        ]
    }
}
