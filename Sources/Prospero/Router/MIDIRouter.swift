import Ariel
import Horatio

/// Hands and touches to MIDI: notes from vertical zones over a scale, controllers, pitch bend,
/// velocity and depth, on one shared channel, a channel per slot, or MPE.
///
/// Input is handled as state diffs: each `process(_:at:)` takes the set of sources present
/// now and returns the MIDI for what changed since the last call. A source missing from the
/// set is lost: its note ends. Sounding notes are keyed by `InputSourceID`, never by channel,
/// and counted per channel and note, so two sources on the same note of one channel do not cut
/// each other: the note-off goes out when the last of them leaves.
///
/// - **Notes**: height (1 − y) picks a zone through `ZoneHysteresis` (margin
///   `settings.hysteresis` of a zone), so a hand jittering on a fret line keeps its note.
///   A zone change ends the old note and starts the new one.
/// - **Controllers** (7-bit) and **bend** (14-bit) are sent only when their value changes, at
///   most `controllerRateLimit` per second each; a change that arrives too soon is held and sent
///   once the interval has passed (by a later `process` or `flush(at:)`), so the last value
///   always arrives. Values a new note needs go out just before its note-on.
/// - On a channel several sources share, controllers and bend follow the source that has been
///   present longest (its owner); the others play notes only.
/// - **MPE** (lower zone): manager channel 1, each source on its own member channel with its
///   own bend, CC 74 (x) and channel pressure (depth); the MPE Configuration Message and the
///   member bend range (RPN 0) are sent before the first note.
///
///     var router = try MIDIRouter(settings: MIDIRouterSettings())
///     let midi = router.process([RouterInput(source: .hand(0), x: 0.5, y: 0.1)], at: 0)
///     // C major pentatonic over 48…72 has 11 zones; height 0.9 → zone 9 → note 69 (A4)
public struct MIDIRouter: Sendable {
    public private(set) var settings: MIDIRouterSettings
    /// The zones, rebuilt by `updateRoutes`.
    public private(set) var layout: FretLayout
    /// Sources that could not get an MPE member channel (all taken) since the start.
    public private(set) var unroutedSourceCount = 0

    /// What one source is playing.
    public struct Voice: Sendable, Hashable {
        public var channel: MIDIChannel
        public var note: Int
        public var velocity: Int
    }

    private struct SourceState: Sendable {
        var zones: ZoneHysteresis
        var input: RouterInput
        var time: Double
        /// When the source appeared, for channel ownership (earliest owns).
        var order: Int
        var channel: MIDIChannel?
        var voice: Voice?
    }

    private enum ControlKind: Hashable, Sendable {
        case controller(Int)
        case bend
        case pressure

        var sortKey: Int {
            switch self {
            case .controller(let cc): return cc
            case .bend: return 200
            case .pressure: return 201
            }
        }
    }

    private struct ControlKey: Hashable, Sendable {
        var channel: MIDIChannel
        var kind: ControlKind
    }

    private struct ControlState: Sendable {
        var sent: Int?
        var sentAt = -Double.infinity
        var pending: Int?
    }

    private var sources: [InputSourceID: SourceState] = [:]
    private var nextOrder = 0
    /// Sounding count per channel × 128 + note.
    private var sounding = [Int](repeating: 0, count: 16 * 128)
    /// Channels that carried a note since the start (they get CC 123 on stop).
    private var channelsPlayed = Set<MIDIChannel>()
    private var controls: [ControlKey: ControlState] = [:]
    private var needsSetup = true
    /// MPE member channel → when it was last released (least recently used is taken first).
    private var memberReleasedAt: [MIDIChannel: Double] = [:]

    public init(settings: MIDIRouterSettings) throws(MIDIRouterSettingsError) {
        try settings.validate()
        self.settings = settings
        layout = FretLayout(settings)
    }

    /// What each source is playing now.
    public var activeNotes: [InputSourceID: Voice] { sources.compactMapValues(\.voice) }

    /// The channels the router plays on (MPE: the member channels).
    public var routedChannels: [MIDIChannel] {
        switch settings.channels {
        case .shared(let c): return [MIDIChannel(number: c)!]
        case .perSlot(let cs): return Array(Set(cs.map { MIDIChannel(number: $0)! })).sorted()
        case .mpe(let n): return MIDIMessage.MPEZone.lower.memberChannels(count: n)
        }
    }

    // MARK: Input

    /// Applies the sources present at `time` (seconds, non-decreasing) and returns the MIDI for
    /// what changed. Sources absent from `inputs` are lost; a source listed twice uses its last entry.
    public mutating func process(_ inputs: [RouterInput], at time: Double) -> [RoutedMIDIMessage] {
        var out: [RoutedMIDIMessage] = []
        if needsSetup { out += setupMessages(at: time); needsSetup = false }
        var present: [InputSourceID: RouterInput] = [:]
        for input in inputs { present[input.source] = input }
        for id in InputSourceID.all where sources[id] != nil && present[id] == nil {
            lose(id, at: time, into: &out)
        }
        for id in InputSourceID.all {
            guard let input = present[id] else { continue }
            update(id, input, at: time, into: &out)
        }
        flushPending(at: time, into: &out)
        return out
    }

    /// Sends controller values held back by the rate limit whose interval has passed.
    public mutating func flush(at time: Double) -> [RoutedMIDIMessage] {
        var out: [RoutedMIDIMessage] = []
        flushPending(at: time, into: &out)
        return out
    }

    /// Ends every note (note-offs), centres bent channels and sends CC 123 All Notes Off on every
    /// channel that played. The router can be used again afterwards.
    public mutating func stop(at time: Double) -> [RoutedMIDIMessage] {
        var out: [RoutedMIDIMessage] = []
        for id in InputSourceID.all where sources[id] != nil { lose(id, at: time, into: &out) }
        for channel in channelsPlayed.sorted() {
            out.append(RoutedMIDIMessage(time: time, .allNotesOff(channel: channel)))
        }
        channelsPlayed.removeAll()
        for (key, state) in controls where state.pending != nil { controls[key]?.pending = nil }
        return out
    }

    /// Rebuilds every route from `newSettings` (zones, quantiser, channels, controllers).
    /// Notes that no longer fit (their note left the zone list, or their channel changed) end
    /// now; the sources play again from their next input. Changing the channel layout or MPE
    /// re-sends the setup (the MPE Configuration Message, bend ranges) before the next note,
    /// and leaving MPE turns the zone off (MCM with 0 members).
    public mutating func updateRoutes(_ newSettings: MIDIRouterSettings, at time: Double) throws(MIDIRouterSettingsError) -> [RoutedMIDIMessage] {
        try newSettings.validate()
        let old = settings
        settings = newSettings
        layout = FretLayout(newSettings)
        var out: [RoutedMIDIMessage] = []
        let channelsChanged = old.channels != newSettings.channels
        for id in InputSourceID.all {
            guard var state = sources[id] else { continue }
            state.zones = ZoneHysteresis(zoneCount: layout.zoneCount, margin: newSettings.hysteresis)
            if channelsChanged {
                if let voice = state.voice { noteOff(voice, at: time, into: &out) }
                state.voice = nil
                state.channel = nil
            } else if let voice = state.voice, !layout.notes.contains(voice.note) {
                noteOff(voice, at: time, into: &out)
                state.voice = nil
            }
            sources[id] = state
        }
        if channelsChanged {
            if old.channels.isMPE, let off = MIDIMessage.mpeConfiguration(zone: .lower, memberChannelCount: 0) {
                out += off.map { RoutedMIDIMessage(time: time, $0) }
            }
            memberReleasedAt.removeAll()
            // Channels the new layout uses start from unknown controller state.
            controls.removeAll()
        }
        if channelsChanged || old.bendRange != newSettings.bendRange || old.bendWithinZone != newSettings.bendWithinZone {
            needsSetup = true
        }
        return out
    }

    // MARK: Per source

    private mutating func update(_ id: InputSourceID, _ input: RouterInput, at time: Double, into out: inout [RoutedMIDIMessage]) {
        var state = sources[id] ?? SourceState(
            zones: ZoneHysteresis(zoneCount: layout.zoneCount, margin: settings.hysteresis),
            input: input, time: time, order: nextOrder, channel: nil, voice: nil)
        if sources[id] == nil { nextOrder += 1 }
        let previous = sources[id].map { ($0.input, $0.time) }
        if state.channel == nil { state.channel = channel(for: id, at: time) }
        guard let channel = state.channel else {
            if sources[id] == nil { unroutedSourceCount += 1 }
            state.input = input
            state.time = time
            sources[id] = state
            return
        }
        let height = RouterInput.finite(input.height)
        let zone = state.zones.update(height)
        let note = layout.notes[zone]
        let startsNote = state.voice?.note != note
        if let voice = state.voice, startsNote {
            noteOff(voice, at: time, into: &out)
            state.voice = nil
        }
        state.input = input
        state.time = time
        sources[id] = state
        // Controllers and bend, from the channel's owner, before any note-on so it starts right.
        if owner(of: channel) == id {
            let force = startsNote
            if let cc = settings.horizontalController {
                set(.controller(cc), on: channel, to: Self.sevenBit(input.x), at: time, force: force, into: &out)
            }
            if let cc = settings.expressionController {
                set(.controller(cc), on: channel, to: Self.sevenBit(input.expression), at: time, force: force, into: &out)
            }
            if let cc = settings.depthController {
                set(.controller(cc), on: channel, to: Self.sevenBit(input.depth), at: time, force: force, into: &out)
            }
            if settings.channels.isMPE {
                set(.pressure, on: channel, to: Self.sevenBit(input.depth), at: time, force: force, into: &out)
            }
            if settings.bendWithinZone || settings.channels.isMPE {
                set(.bend, on: channel, to: bendValue(height: height, zone: zone).intValue, at: time, force: force, into: &out)
            }
        }
        if startsNote {
            let velocity = self.velocity(input, time: time, previous: previous)
            let voice = Voice(channel: channel, note: note, velocity: velocity)
            noteOn(voice, at: time, into: &out)
            sources[id]?.voice = voice
        }
    }

    private mutating func lose(_ id: InputSourceID, at time: Double, into out: inout [RoutedMIDIMessage]) {
        guard let state = sources[id] else { return }
        let wasOwner = state.channel.map { owner(of: $0) == id } ?? false
        if let voice = state.voice { noteOff(voice, at: time, into: &out) }
        sources[id] = nil
        guard let channel = state.channel else { return }
        if settings.channels.isMPE { memberReleasedAt[channel] = time }
        // A channel nobody plays any more goes back to no bend, so the next note starts in tune.
        if wasOwner && owner(of: channel) == nil {
            let key = ControlKey(channel: channel, kind: .bend)
            if let sent = controls[key]?.sent, sent != MIDIUInt14.center.intValue {
                out.append(RoutedMIDIMessage(time: time, .pitchBend(channel: channel, value: .center)))
                controls[key] = ControlState(sent: MIDIUInt14.center.intValue, sentAt: time, pending: nil)
            } else {
                controls[key]?.pending = nil
            }
            for (k, _) in controls where k.channel == channel { controls[k]?.pending = nil }
        }
    }

    /// The channel a new source plays on; nil when MPE has no free member channel.
    private mutating func channel(for id: InputSourceID, at time: Double) -> MIDIChannel? {
        switch settings.channels {
        case .shared(let c):
            return MIDIChannel(number: c)
        case .perSlot(let cs):
            switch id {
            case .hand(let i), .touch(let i): return MIDIChannel(number: cs[i])
            case .face: return MIDIChannel(number: cs[0])
            }
        case .mpe(let n):
            let taken = Set(sources.values.compactMap(\.channel))
            let free = MIDIMessage.MPEZone.lower.memberChannels(count: n).filter { !taken.contains($0) }
            // Least recently released first: a released note's tail is left alone as long as possible.
            return free.min { (memberReleasedAt[$0] ?? -.infinity, $0) < (memberReleasedAt[$1] ?? -.infinity, $1) }
        }
    }

    private func owner(of channel: MIDIChannel) -> InputSourceID? {
        sources.filter { $0.value.channel == channel }.min { $0.value.order < $1.value.order }?.key
    }

    // MARK: Values

    /// Continuous pitch inside a zone: 0 at the zone's centre, reaching half the interval to the
    /// neighbouring note at each edge, so the pitch is continuous across a fret line.
    private func bendValue(height: Double, zone: Int) -> MIDIUInt14 {
        let notes = layout.notes
        let offset = height * Double(notes.count) - Double(zone) - 0.5   // −0.5…0.5 inside the zone
        let neighbour = offset >= 0 ? min(zone + 1, notes.count - 1) : max(zone - 1, 0)
        var gap = Double(abs(notes[neighbour] - notes[zone]))
        if neighbour == zone { gap = 0 }  // no bend beyond the outermost notes
        let semitones = offset * gap
        return MIDIUInt14(bipolar: semitones / Double(settings.bendRange))
    }

    private func velocity(_ input: RouterInput, time: Double, previous: (RouterInput, Double)?) -> Int {
        let amount: Double
        switch settings.velocity {
        case .fixed(let v): return v
        case .fingerCount: amount = input.expression
        case .depth: amount = input.depth
        case .verticalSpeed(let fullScale):
            if let (before, t) = previous, time > t {
                amount = abs(input.y - before.y) / (time - t) / fullScale
            } else {
                amount = 0
            }
        }
        let u = amount.isFinite ? min(max(amount, 0), 1) : 0
        let range = Double(settings.maximumVelocity - settings.minimumVelocity)
        return settings.minimumVelocity + Int((u * range).rounded())
    }

    static func sevenBit(_ v: Double) -> Int {
        let u = v.isFinite ? min(max(v, 0), 1) : 0
        return Int((u * 127).rounded())
    }

    // MARK: Output

    private mutating func noteOn(_ voice: Voice, at time: Double, into out: inout [RoutedMIDIMessage]) {
        let slot = voice.channel.index * 128 + voice.note
        sounding[slot] += 1
        channelsPlayed.insert(voice.channel)
        guard sounding[slot] == 1 else { return }  // already sounding for another source: shared
        out.append(RoutedMIDIMessage(time: time, .noteOn(
            channel: voice.channel, note: MIDIUInt7(clamping: voice.note), velocity: MIDIUInt7(clamping: voice.velocity))))
    }

    private mutating func noteOff(_ voice: Voice, at time: Double, into out: inout [RoutedMIDIMessage]) {
        let slot = voice.channel.index * 128 + voice.note
        guard sounding[slot] > 0 else { return }
        sounding[slot] -= 1
        guard sounding[slot] == 0 else { return }  // another source still holds it
        out.append(RoutedMIDIMessage(time: time, .noteOff(
            channel: voice.channel, note: MIDIUInt7(clamping: voice.note), velocity: 0)))
    }

    private var minimumInterval: Double { 1 / settings.controllerRateLimit }

    private mutating func set(_ kind: ControlKind, on channel: MIDIChannel, to value: Int, at time: Double, force: Bool,
                              into out: inout [RoutedMIDIMessage]) {
        let key = ControlKey(channel: channel, kind: kind)
        var state = controls[key] ?? ControlState()
        if state.sent == value {
            state.pending = nil
        } else if force || time - state.sentAt >= minimumInterval {
            out.append(RoutedMIDIMessage(time: time, Self.message(kind, channel, value)))
            state = ControlState(sent: value, sentAt: time, pending: nil)
        } else {
            state.pending = value
        }
        controls[key] = state
    }

    private mutating func flushPending(at time: Double, into out: inout [RoutedMIDIMessage]) {
        let due = controls.filter { $0.value.pending != nil && time - $0.value.sentAt >= minimumInterval }
        for (key, state) in due.sorted(by: { ($0.key.channel, $0.key.kind.sortKey) < ($1.key.channel, $1.key.kind.sortKey) }) {
            let value = state.pending!
            out.append(RoutedMIDIMessage(time: time, Self.message(key.kind, key.channel, value)))
            controls[key] = ControlState(sent: value, sentAt: time, pending: nil)
        }
    }

    private static func message(_ kind: ControlKind, _ channel: MIDIChannel, _ value: Int) -> MIDIMessage {
        switch kind {
        case .controller(let cc):
            return .controlChange(channel: channel, controller: MIDIUInt7(clamping: cc), value: MIDIUInt7(clamping: value))
        case .bend:
            return .pitchBend(channel: channel, value: MIDIUInt14(clamping: value))
        case .pressure:
            return .channelPressure(channel: channel, pressure: MIDIUInt7(clamping: value))
        }
    }

    /// MPE: the Configuration Message, then member (and manager) bend ranges. Otherwise, with
    /// bend inside zones, the bend range of every routed channel.
    private func setupMessages(at time: Double) -> [RoutedMIDIMessage] {
        var messages: [MIDIMessage] = []
        switch settings.channels {
        case .mpe(let n):
            messages += MIDIMessage.mpeConfiguration(zone: .lower, memberChannelCount: n) ?? []
            for member in MIDIMessage.MPEZone.lower.memberChannels(count: n) {
                messages += MIDIMessage.pitchBendSensitivity(channel: member, semitones: MIDIUInt7(clamping: settings.bendRange))
            }
            messages += MIDIMessage.pitchBendSensitivity(channel: MIDIMessage.MPEZone.lower.managerChannel, semitones: 2)
        case .shared, .perSlot:
            if settings.bendWithinZone {
                for channel in routedChannels {
                    messages += MIDIMessage.pitchBendSensitivity(channel: channel, semitones: MIDIUInt7(clamping: settings.bendRange))
                }
            }
        }
        return messages.map { RoutedMIDIMessage(time: time, $0) }
    }
}

extension RouterInput {
    /// NaN (a tracker glitch) as the bottom edge rather than poisoning the zone math.
    static func finite(_ v: Double) -> Double { v.isNaN ? 0 : v }
}
