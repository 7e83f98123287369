import ProsperoJACK

/// The live figures' targets, all in this one declaration. Each is what the test suite asserted on real JACK
/// before these figures moved to the bench. Frames at 48 kHz (48 frames are 1 ms); `delay` is the default input
/// delay at the server's period (`--input-delay 1p+16`), `period` the server's period.
enum BenchTargets {
    static let millisecond = 48
    /// The live output stage (limiter look-ahead and true-peak delay), which every live instrument reports to JACK.
    static let liveStage = 48
    /// A figure is judged only when at least this share of the events it wanted came undisturbed; with fewer, its
    /// targets are missed ("too few undisturbed events"), because a figure read from a few lucky events is not the figure.
    static let minimumShare = 0.5

    static func sample(_ values: [Int], wanted: Int) -> BenchCheck {
        let least = Int((Double(wanted) * minimumShare).rounded(.up))
        return .holds("undisturbed events ≥ \(least)", values.count >= least, measured: "\(values.count)")
    }

    /// Every event sounds after its send (a figure at or below 0 is a broken stamp, not a fast path).
    static func afterSend(_ values: [Int]) -> BenchCheck {
        .holds("every event after its send", !values.isEmpty && values.allSatisfy { $0 > 0 }, measured: "least \(values.min().map(String.init) ?? "none")")
    }

    /// UDP → first changed sample at out_left of `prospero hands --output both`: median ≤ delay + a period + 1 ms,
    /// worst ≤ delay + 3 periods; the printed input → sound is the delay and the live stage, and the median lies
    /// within 1 ms of it.
    static func udpToAudio(_ frames: [Int], printed: Int?, delay: Int, period: Int, wanted: Int) -> [BenchCheck] {
        [sample(frames, wanted: wanted), afterSend(frames),
         .atMost("median", frames.median, delay + period + millisecond),
         .atMost("worst", frames.max(), delay + 3 * period),
         .holds("printed input → sound = \(delay + liveStage)", printed == delay + liveStage, measured: printed.map(String.init) ?? "none"),
         .atMost("|median − printed|", both(frames.median, printed).map { abs($0 - $1) }, millisecond)]
    }

    /// UDP → note-on at midi_out of `prospero hands --output both`: MIDI leaves at its sample, so the median lies
    /// within 1 ms after the delay; worst ≤ delay + 3 periods.
    static func udpToMIDI(_ frames: [Int], delay: Int, period: Int, wanted: Int) -> [BenchCheck] {
        [sample(frames, wanted: wanted), afterSend(frames),
         .within("median", frames.median, delay...(delay + millisecond)),
         .atMost("worst", frames.max(), delay + 3 * period)]
    }

    /// Gesture → sound: a face to live Hecate (`face`), or a note into `prospero play`'s midi_in (read at its frame:
    /// no input delay). Median ≤ delay + the live stage + a period + 1 ms; for a face the printed input → sound is
    /// the delay and the live stage, and at 64-frame periods median ≤ 5 ms and worst ≤ median + 2 ms.
    static func gesture(_ frames: [Int], face: Bool, printed: Int?, delay: Int, period: Int, wanted: Int) -> [BenchCheck] {
        let delay = face ? delay : 0
        var checks = [sample(frames, wanted: wanted), afterSend(frames),
                      .atMost("median", frames.median, delay + liveStage + period + millisecond)]
        if face {
            checks.append(.holds("printed input → sound = \(delay + liveStage)", printed == delay + liveStage,
                                 measured: printed.map(String.init) ?? "none"))
        }
        if face && period == 64 {
            checks.append(.atMost("median (5 ms)", frames.median, 5 * millisecond))
            checks.append(.atMost("worst − median (2 ms)", both(frames.max(), frames.median).map { $0 - $1 }, 2 * millisecond))
        }
        return checks
    }

    /// The studio's Hecate beside `prospero hecate` (the one live adapter both drive), the same face: median ≤ the
    /// command's printed input → sound + a period + 1 ms, worst ≤ delay + 3 periods, and the two medians within 1 ms.
    /// (The studio prints its latency for the instrument active at its start, so the command's figure is the reference.)
    static func studio(_ frames: [Int], command: [Int], commandPrinted: Int?, delay: Int, period: Int, wanted: Int) -> [BenchCheck] {
        [sample(frames, wanted: wanted), afterSend(frames),
         .atMost("median", frames.median, (commandPrinted ?? delay + liveStage) + period + millisecond),
         .atMost("worst", frames.max(), delay + 3 * period),
         .atMost("|median − command's median|", both(frames.median, command.median).map { abs($0 - $1) }, millisecond)]
    }

    /// A face frame that needed more than this (eight periods, at least 20 ms) while every probe read quiet met a
    /// disturbance the probes missed (once seen: 9 677 frames at 64, the server's clock misread around it).
    static func implausibleNeed(period: Int) -> Int { max(8 * period, 960) }

    /// Nanoseconds of CPU wait (the bench's and jackd's threads) a face frame may meet and still be judged: the
    /// input threads are ordinary threads, and a build that keeps them from a CPU longer holds a frame back by as much.
    static let inputWaitAllowance = 250_000

    /// The input delay each face frame needed, with the default delay: no undisturbed frame needed more than the
    /// delay plus what the machine was measured taking around it (its CPU wait and the periods' drift from their
    /// cadence), within the run's own worst placement error (a need below 0: the server's time estimate misread);
    /// at most 5 % of the frames placed before their arrival, none by a period; at most 1 % implausibly late.
    static func inputDelay(needs: [Int], beyondWait: [Int], implausible: Int, delay: Int, period: Int, wanted: Int) -> [BenchCheck] {
        let early = needs.filter { $0 <= 0 }
        let placementError = max(0, -(needs.min() ?? 0))
        return [sample(needs, wanted: wanted),
                .atMost("worst beyond its wait − placement error (\(placementError))", beyondWait.max().map { $0 - placementError }, delay),
                .holds("placed before arrival ≤ 5 %, none by a period", early.count * 20 <= needs.count && early.allSatisfy { $0 > -period },
                       measured: "\(early.count), least \(needs.min().map(String.init) ?? "none")"),
                .holds("quiet but later than \(implausibleNeed(period: period)) ≤ 1 %", implausible * 100 <= needs.count, measured: "\(implausible)")]
    }

    /// The callback of a representative live workload (`BenchVoices`): no callback whose own work (its CPU time)
    /// exceeded the period, and a report whose figures agree with each other and with the client's counters.
    static func callbacks(_ report: JACKCallbackReport, periods: Int) -> [BenchCheck] {
        func ordered(_ d: JACKCallbackDistribution) -> Bool { d.median > 0 && d.median <= d.p99 && d.p99 <= d.p999 && d.p999 <= d.maximum }
        let causes = report.overPeriodByWork + report.overPeriodBySwitch + report.overPeriodByFault
        let counted = report.droppedCount == 0 && report.callbacks <= periods && causes <= report.overPeriod
        let consistent = ordered(report.wall) && ordered(report.cpu) && report.cpu.mean <= report.wall.mean && counted
        return [.atMost("callbacks over the period by our work", report.overPeriodByWork, 0),
                .holds("report consistent", consistent, measured: consistent ? "yes" : "no: \(report.lines.joined(separator: "; "))")]
    }
}

/// Both values, or nil.
private func both(_ a: Int?, _ b: Int?) -> (Int, Int)? {
    guard let a, let b else { return nil }
    return (a, b)
}
