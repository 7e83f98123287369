/// `prospero-jack-bench gesture`: gesture → sound per sender (``GestureSender``), the first sample above −120 dBFS
/// at out_left (−60 dBFS for `play`'s synth), 16 undisturbed events wanted per sender; the studio's Hecate is
/// judged beside the command's.
enum GestureBench {
    static let wanted = 16
    static let maximumSends = 5 * wanted

    static func rows(on server: BenchServer) -> [BenchRow] {
        var command: LiveEventRun?
        return GestureSender.allCases.map { sender in
            let figure = "gesture → sound, \(sender)"
            let run: LiveEventRun
            do {
                run = try LiveEventRun.measure(sender.subject, on: server, wanted: wanted, maximumSends: maximumSends)
            } catch {
                return BenchRow(figure: figure, period: server.period, sample: "", median: "", spread: "", failure: "\(error)")
            }
            if sender == .bundle { command = run }
            let checks = sender == .studio
                ? BenchTargets.studio(run.audio, command: command?.audio ?? [], commandPrinted: command?.printedInputToSound,
                                      delay: server.defaultInputDelay, period: server.period, wanted: wanted)
                : BenchTargets.gesture(run.audio, face: sender.isFace, printed: run.printedInputToSound,
                                       delay: server.defaultInputDelay, period: server.period, wanted: wanted)
            let all = run.events.map(\.audio)
            return BenchRow(figure: figure, period: server.period, sample: run.eventsLine, median: run.audio.median.map(Bench.frames) ?? "—",
                            spread: run.audio.spread, allEvents: "median \(all.median.map(String.init) ?? "—"), \(all.spread)", checks: checks)
        }
    }
}
