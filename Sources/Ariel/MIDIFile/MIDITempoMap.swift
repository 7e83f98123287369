/// Converts between ticks and seconds across tempo changes.
///
/// For PPQN division, each Set Tempo event starts a segment with its own seconds-per-tick; before the
/// first one the tempo is 120 BPM (500 000 µs per quarter), as the SMF specification says. For SMPTE
/// division ticks are absolute time and tempo events are ignored. Lookups are O(log segments) and do
/// not allocate.
public struct MIDITempoMap: Sendable, Hashable {
    /// Segment start ticks, ascending; the first is 0.
    public private(set) var segmentTicks: [Int]
    /// Segment start times in seconds.
    public private(set) var segmentSeconds: [Double]
    /// Microseconds per quarter note in each segment (PPQN), or 0 for SMPTE.
    public private(set) var segmentTempos: [Int]
    private var secondsPerTick: [Double]

    public static let defaultMicrosecondsPerQuarterNote = 500_000

    /// A map from a division and tempo changes (tick, microseconds per quarter). Changes are sorted by
    /// tick (stable); at equal ticks the last one wins. Ignored for SMPTE division.
    public init(division: MIDIFile.Division, tempoChanges: [(tick: Int, microsecondsPerQuarterNote: Int)]) {
        switch division {
        case .smpte:
            let spt = 1 / (division.ticksPerSecond ?? 1)
            segmentTicks = [0]; segmentSeconds = [0]; segmentTempos = [0]; secondsPerTick = [spt]
        case .ticksPerQuarterNote(let ppqn):
            let q = Double(max(1, ppqn))
            var ticks = [0], tempos = [Self.defaultMicrosecondsPerQuarterNote]
            let sorted = tempoChanges.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }
            for (_, change) in sorted where change.microsecondsPerQuarterNote > 0 {
                let tick = max(0, change.tick)
                if ticks.last == tick { tempos[tempos.count - 1] = change.microsecondsPerQuarterNote }
                else { ticks.append(tick); tempos.append(change.microsecondsPerQuarterNote) }
            }
            var seconds = [0.0], spts: [Double] = []
            for i in tempos.indices {
                spts.append(Double(tempos[i]) / 1_000_000 / q)
                if i > 0 { seconds.append(seconds[i - 1] + Double(ticks[i] - ticks[i - 1]) * spts[i - 1]) }
            }
            segmentTicks = ticks; segmentSeconds = seconds; segmentTempos = tempos; secondsPerTick = spts
        }
    }

    /// The tempo map of a file: Set Tempo events of every track (format 0 and 1) or of track 0 (format 2).
    public init(file: MIDIFile) {
        var changes: [(tick: Int, microsecondsPerQuarterNote: Int)] = []
        let tracks = file.format == .multiSequence ? Array(file.tracks.prefix(1)) : file.tracks
        for track in tracks {
            var tick = 0
            for e in track.events {
                tick += e.delta
                if case .meta(let m) = e.kind, let us = m.microsecondsPerQuarterNote { changes.append((tick, us)) }
            }
        }
        self.init(division: file.division, tempoChanges: changes)
    }

    private func segment(forTick tick: Double) -> Int {
        var lo = 0, hi = segmentTicks.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if Double(segmentTicks[mid]) <= tick { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    private func segment(forSeconds s: Double) -> Int {
        var lo = 0, hi = segmentSeconds.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segmentSeconds[mid] <= s { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Seconds from tick 0 to `tick` (ticks may be fractional; negative ticks use the first tempo).
    public func seconds(atTick tick: Double) -> Double {
        let i = segment(forTick: tick)
        return segmentSeconds[i] + (tick - Double(segmentTicks[i])) * secondsPerTick[i]
    }

    public func seconds(atTick tick: Int) -> Double { seconds(atTick: Double(tick)) }

    /// The (fractional) tick at `seconds`; inverse of `seconds(atTick:)`.
    public func tick(atSeconds seconds: Double) -> Double {
        let i = segment(forSeconds: seconds)
        return Double(segmentTicks[i]) + (seconds - segmentSeconds[i]) / secondsPerTick[i]
    }

    /// Microseconds per quarter note in effect at `tick` (0 for SMPTE division).
    public func microsecondsPerQuarterNote(atTick tick: Int) -> Int { segmentTempos[segment(forTick: Double(tick))] }

    /// Beats per minute at `tick` (nil for SMPTE division).
    public func bpm(atTick tick: Int) -> Double? {
        let us = microsecondsPerQuarterNote(atTick: tick)
        return us > 0 ? 60_000_000 / Double(us) : nil
    }
}
