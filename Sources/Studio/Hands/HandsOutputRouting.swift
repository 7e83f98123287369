import Ariel
import InstrumentSettings
import LiveHost

/// Where the hands' adapter (``HandsLiveInstrument``) sends its MIDI in the studio: JACK `midi_out`, the
/// built-in synth, or both, as the `output` setting says. Switching it moves every later message; the
/// controller ends the notes on the old destination first. Used from the studio's control thread only.
final class HandsOutputRouting: LiveMIDIOutput, @unchecked Sendable {
    /// JACK `midi_out`'s queue; nil when the session has no JACK MIDI.
    let midiOut: (any LiveMIDIOutput)?
    let synth: PolySynthMIDIOutput
    /// The destination of the next message.
    var destination: HandsOutput

    init(midiOut: (any LiveMIDIOutput)?, synth: PolySynthMIDIOutput, destination: HandsOutput) {
        self.midiOut = midiOut
        self.synth = synth
        self.destination = destination
    }

    /// Sends to every destination of the setting; true when none had to drop it.
    @discardableResult
    func send(_ message: MIDIShortMessage, dueAt due: UInt32?) -> Bool {
        var delivered = true
        if destination.includesMIDI, let midiOut { delivered = midiOut.send(message, dueAt: due) && delivered }
        if destination.includesSynth { delivered = synth.send(message, dueAt: due) && delivered }
        return delivered
    }
}
