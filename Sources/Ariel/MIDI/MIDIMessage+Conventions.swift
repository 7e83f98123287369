/// Helpers for the controller conventions of MIDI 1.0 and MPE (protocols.md §3).
///
/// These return arrays and are meant for the control thread (setup, learn previews, panic buttons).
extension MIDIMessage {
    /// Controller numbers with a defined meaning used by the helpers below.
    public enum Controller {
        public static let modulationWheel: MIDIUInt7 = 1
        public static let dataEntryMSB: MIDIUInt7 = 6
        public static let volume: MIDIUInt7 = 7
        public static let pan: MIDIUInt7 = 10
        public static let dataEntryLSB: MIDIUInt7 = 38
        public static let sustain: MIDIUInt7 = 64
        /// MPE timbre (third dimension, "slide").
        public static let timbre: MIDIUInt7 = 74
        public static let nrpnLSB: MIDIUInt7 = 98
        public static let nrpnMSB: MIDIUInt7 = 99
        public static let rpnLSB: MIDIUInt7 = 100
        public static let rpnMSB: MIDIUInt7 = 101
        public static let allSoundOff: MIDIUInt7 = 120
        public static let resetAllControllers: MIDIUInt7 = 121
        public static let allNotesOff: MIDIUInt7 = 123
        /// Controllers free for user mappings: 20–31 and 102–119.
        public static let undefined: [MIDIUInt7] = (20...31).map { MIDIUInt7(unchecked: UInt8($0)) }
            + (102...119).map { MIDIUInt7(unchecked: UInt8($0)) }
    }

    /// A 14-bit controller: MSB on controller `msbController` (0…31), then LSB on `msbController + 32`.
    /// Nil when `msbController` is above 31.
    public static func controlChange14Bit(channel: MIDIChannel, msbController: MIDIUInt7,
                                          value: MIDIUInt14) -> [MIDIMessage]? {
        guard msbController.rawValue < 32 else { return nil }
        return [
            .controlChange(channel: channel, controller: msbController, value: value.msb),
            .controlChange(channel: channel, controller: MIDIUInt7(unchecked: msbController.rawValue + 32), value: value.lsb),
        ]
    }

    /// CC 123 All Notes Off (send on stop and on tracking loss after the note-offs).
    public static func allNotesOff(channel: MIDIChannel) -> MIDIMessage {
        .controlChange(channel: channel, controller: Controller.allNotesOff, value: 0)
    }

    /// CC 120 All Sound Off (silences releases too).
    public static func allSoundOff(channel: MIDIChannel) -> MIDIMessage {
        .controlChange(channel: channel, controller: Controller.allSoundOff, value: 0)
    }

    /// CC 121 Reset All Controllers.
    public static func resetAllControllers(channel: MIDIChannel) -> MIDIMessage {
        .controlChange(channel: channel, controller: Controller.resetAllControllers, value: 0)
    }

    /// A Registered Parameter write: CC101/CC100 select the parameter, CC6 (and CC38 when
    /// `valueLSB` is given) set it, then CC101/CC100 = 127 ("RPN null") so later data entry
    /// cannot change it by accident.
    public static func registeredParameter(channel: MIDIChannel, parameter: MIDIUInt14, valueMSB: MIDIUInt7,
                                           valueLSB: MIDIUInt7? = nil, deselect: Bool = true) -> [MIDIMessage] {
        parameterWrite(channel: channel, msbCC: Controller.rpnMSB, lsbCC: Controller.rpnLSB,
                       parameter: parameter, valueMSB: valueMSB, valueLSB: valueLSB, deselect: deselect)
    }

    /// A Non-Registered Parameter write: CC99/CC98 select, CC6/CC38 set, then RPN null (CC101/100 = 127),
    /// which deselects NRPNs as well.
    public static func nonRegisteredParameter(channel: MIDIChannel, parameter: MIDIUInt14, valueMSB: MIDIUInt7,
                                              valueLSB: MIDIUInt7? = nil, deselect: Bool = true) -> [MIDIMessage] {
        parameterWrite(channel: channel, msbCC: Controller.nrpnMSB, lsbCC: Controller.nrpnLSB,
                       parameter: parameter, valueMSB: valueMSB, valueLSB: valueLSB, deselect: deselect)
    }

    private static func parameterWrite(channel: MIDIChannel, msbCC: MIDIUInt7, lsbCC: MIDIUInt7, parameter: MIDIUInt14,
                                       valueMSB: MIDIUInt7, valueLSB: MIDIUInt7?, deselect: Bool) -> [MIDIMessage] {
        var out: [MIDIMessage] = [
            .controlChange(channel: channel, controller: msbCC, value: parameter.msb),
            .controlChange(channel: channel, controller: lsbCC, value: parameter.lsb),
            .controlChange(channel: channel, controller: Controller.dataEntryMSB, value: valueMSB),
        ]
        if let valueLSB { out.append(.controlChange(channel: channel, controller: Controller.dataEntryLSB, value: valueLSB)) }
        if deselect {
            out.append(.controlChange(channel: channel, controller: Controller.rpnMSB, value: 127))
            out.append(.controlChange(channel: channel, controller: Controller.rpnLSB, value: 127))
        }
        return out
    }

    /// RPN 0, pitch-bend sensitivity: range ± `semitones` (0…127) plus `cents` (0…99, sent as 0…127 LSB).
    public static func pitchBendSensitivity(channel: MIDIChannel, semitones: MIDIUInt7, cents: MIDIUInt7 = 0) -> [MIDIMessage] {
        registeredParameter(channel: channel, parameter: 0, valueMSB: semitones, valueLSB: cents)
    }

    /// An MPE zone: lower (manager channel 1 = index 0, members above) or upper (manager 16, members below).
    public enum MPEZone: Sendable, Hashable, Codable {
        case lower, upper

        /// The zone's manager channel: index 0 for lower, 15 for upper.
        public var managerChannel: MIDIChannel { self == .lower ? MIDIChannel(unchecked: 0) : MIDIChannel(unchecked: 15) }

        /// The member channels for `memberCount` (1…15) members.
        public func memberChannels(count memberCount: Int) -> [MIDIChannel] {
            let n = max(0, min(15, memberCount))
            return self == .lower ? (1...max(1, n)).prefix(n).map { MIDIChannel(unchecked: UInt8($0)) }
                                  : (0..<n).map { MIDIChannel(unchecked: UInt8(14 - $0)) }
        }
    }

    /// The MPE Configuration Message (RPN 6 on the zone's manager channel, data entry MSB = member
    /// channel count 0…15; 0 turns the zone off). Nil when `memberChannelCount` is above 15.
    public static func mpeConfiguration(zone: MPEZone, memberChannelCount: Int) -> [MIDIMessage]? {
        guard let count = MIDIUInt7(memberChannelCount), memberChannelCount <= 15 else { return nil }
        return registeredParameter(channel: zone.managerChannel, parameter: 6, valueMSB: count)
    }
}
