import Ariel

/// Hecate's sound as MIDI (``HecateMIDIMap``): at every control tick it compares what the voices play
/// with the notes it has sent and posts the difference into the engine's ``EngineMIDIOutbox`` at that
/// tick's frame; pressure and controllers every ``HecateMIDIMap/controllerInterval``.
///
/// Lanes 0…5 are the chord tones, lane 6 the bass voice (lane 7 is unused). A message the outbox
/// refuses leaves the state as it was, so the change is posted again at the next tick.
struct DroneMIDIPlayer {
    /// One tick's view of the engine.
    struct Voices {
        /// What each voice plays now (0…1): its smoothed level × gate × face fade.
        var levels: SIMD8<Float>
        /// What the face asks of each voice (0…1): velocity and pressure.
        var targets: SIMD8<Float>
        /// Each voice's MIDI note in the current key and chord.
        var notes: SIMD8<Int32>
        /// The controllers' amounts (0…1), in ``HecateMIDIMap`` order.
        var controllers: SIMD8<Float>
    }

    static let voiceCount = 7
    static let controllerNumbers: SIMD8<UInt8> = SIMD8(
        HecateMIDIMap.cutoff, HecateMIDIMap.resonance, HecateMIDIMap.formantF1, HecateMIDIMap.formantF2,
        HecateMIDIMap.brightness, HecateMIDIMap.expression, HecateMIDIMap.reverb, HecateMIDIMap.tremoloDepth)

    /// The channel's status nibble (0…15), nil while MIDI out is off.
    private(set) var channel: UInt8?
    /// Per voice: the note sounding (−1: none) and the pressure last sent (−1: none).
    private var sounding = SIMD8<Int32>(repeating: -1)
    private var pressure = SIMD8<Int32>(repeating: -1)
    /// Per controller: the 7-bit value last sent (−1: none, so everything goes out when MIDI starts).
    private var sent = SIMD8<Int32>(repeating: -1)
    /// Ticks between two controller rounds, and ticks left until the next.
    private var controllerTicks = 1
    private var countdown = 0

    var isOn: Bool { channel != nil }

    /// The controller round's length for a control rate of `controlRate` ticks per second.
    mutating func prepare(controlRate: Double) {
        controllerTicks = max(1, Int((HecateMIDIMap.controllerInterval * controlRate).rounded()))
        countdown = 0
    }

    /// Starts (channel 1…16) or stops (nil) MIDI out at `frame`; stopping or moving to another channel
    /// first ends every sounding note and sends All Notes Off on the old channel.
    mutating func setChannel(_ newChannel: Int?, frame: Int64, outbox: EngineMIDIOutbox) {
        let nibble = newChannel.map { UInt8(min(max($0, 1), 16) - 1) }
        guard nibble != channel else { return }
        end(frame: frame, outbox: outbox)
        channel = nibble
        countdown = 0
    }

    /// A note-off for every sounding note, then All Notes Off (CC 123), and the state forgotten.
    mutating func end(frame: Int64, outbox: EngineMIDIOutbox) {
        guard let channel else { return }
        for lane in 0..<Self.voiceCount where sounding[lane] >= 0 {
            post(0x80 | channel, UInt8(sounding[lane]), 64, frame, outbox)
        }
        post(0xB0 | channel, 123, 0, frame, outbox)
        forget()
    }

    /// Sends every controller again at the next tick (a face found: a receiver connected since the
    /// last change, or reset, is set again before the face plays).
    mutating func resendControllers() {
        sent = SIMD8(repeating: -1)
        countdown = 0
    }

    /// Forgets what was sent without sending anything (the receiver already ended every note): the
    /// next tick starts afresh (notes of sounding voices, every controller).
    mutating func forget() {
        sounding = SIMD8(repeating: -1)
        pressure = SIMD8(repeating: -1)
        sent = SIMD8(repeating: -1)
        countdown = 0
    }

    /// One control tick at `frame`: controllers (when their round is due), note-offs, note-ons, pressure.
    mutating func tick(_ voices: Voices, frame: Int64, outbox: EngineMIDIOutbox) {
        guard let channel else { return }
        let controllersDue = countdown == 0
        countdown = controllersDue ? controllerTicks - 1 : countdown - 1
        if controllersDue {
            for c in 0..<8 {
                let value = HecateMIDIMap.value(voices.controllers[c])
                guard Int32(value) != sent[c] else { continue }
                if post(0xB0 | channel, Self.controllerNumbers[c], value, frame, outbox) { sent[c] = Int32(value) }
            }
        }
        for lane in 0..<Self.voiceCount {
            let level = voices.levels[lane]
            let note = voices.notes[lane]
            let wasOn = sounding[lane] >= 0
            if wasOn && (level < HecateMIDIMap.noteOffLevel || note != sounding[lane]) {
                guard post(0x80 | channel, UInt8(sounding[lane]), 64, frame, outbox) else { continue }
                sounding[lane] = -1
                pressure[lane] = -1
            }
            // A chord change re-voices a sounding note at once; a silent voice waits for the on level.
            let onLevel = wasOn ? HecateMIDIMap.noteOffLevel : HecateMIDIMap.noteOnLevel
            if sounding[lane] < 0 && level >= onLevel && note >= 0 && note < 128 {
                let velocity = HecateMIDIMap.velocity(voices.targets[lane])
                if post(0x90 | channel, UInt8(note), velocity, frame, outbox) {
                    sounding[lane] = note
                    pressure[lane] = Int32(velocity)
                }
            } else if controllersDue && sounding[lane] >= 0 {
                let value = HecateMIDIMap.pressure(voices.targets[lane])
                if Int32(value) != pressure[lane], post(0xA0 | channel, UInt8(sounding[lane]), value, frame, outbox) {
                    pressure[lane] = Int32(value)
                }
            }
        }
    }

    @discardableResult @inline(__always)
    private func post(_ status: UInt8, _ data1: UInt8, _ data2: UInt8, _ frame: Int64, _ outbox: EngineMIDIOutbox) -> Bool {
        guard let message = MIDIShortMessage(status: status, data1: data1 & 0x7F, data2: data2 & 0x7F) else { return false }
        return outbox.post(message, atFrame: frame)
    }
}
