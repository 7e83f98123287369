extension MIDIFile {
    /// The file as bytes: MThd (6-byte header) and one MTrk chunk per track.
    ///
    /// Each track is ended by exactly one End of Track: End of Track events inside the track are
    /// dropped (their delta carried to the next event) and one is appended at the end, as mido does.
    /// With `runningStatus`, repeated channel status bytes are omitted; meta and SysEx events reset it,
    /// so any reader follows. Channel messages are written as such; system common and real-time messages
    /// become F7 escape events.
    ///
    /// - Throws: `MIDIFileError` for a format 0 file without exactly one track, delta times or lengths
    ///   outside 0…0x0FFFFFFF, or a SysEx payload with a high bit set (track index and event index given).
    public func encoded(runningStatus: Bool = true) throws(MIDIFileError) -> [UInt8] {
        if format == .singleTrack && tracks.count != 1 { throw MIDIFileError(.formatZeroTrackCount(tracks.count), offset: 0) }
        guard tracks.count <= 0xFFFF else { throw MIDIFileError(.valueOutOfRange(tracks.count), offset: 0) }
        switch division {
        case .ticksPerQuarterNote(let t) where t < 1 || t > 0x7FFF:
            throw MIDIFileError(.invalidDivision(UInt16(clamping: t)), offset: 12)
        case .smpte(let fps, let tpf) where ![24, 25, 29, 30].contains(fps) || tpf < 1 || tpf > 255:
            throw MIDIFileError(.invalidDivision(division.rawValue), offset: 12)
        default: break
        }
        var out: [UInt8] = Array("MThd".utf8)
        out.appendBE32(6)
        out.appendBE16(UInt16(format.rawValue))
        out.appendBE16(UInt16(tracks.count))
        out.appendBE16(division.rawValue)
        for (t, track) in tracks.enumerated() {
            let body = try Self.encode(track, index: t, runningStatus: runningStatus)
            out += Array("MTrk".utf8)
            out.appendBE32(UInt32(body.count))
            out += body
        }
        return out
    }

    private static func encode(_ track: MIDIFileTrack, index: Int, runningStatus useRunningStatus: Bool) throws(MIDIFileError) -> [UInt8] {
        var out: [UInt8] = []
        var status: UInt8 = 0
        var carried = 0
        func vlq(_ v: Int, event: Int) throws(MIDIFileError) {
            guard v >= 0, v <= 0x0FFF_FFFF else { throw MIDIFileError(.valueOutOfRange(v), track: index, offset: event) }
            out.appendVLQ(v)
        }
        for (i, e) in track.events.enumerated() {
            let delta = e.delta + carried
            if case .meta(let m) = e.kind, m.isEndOfTrack {
                carried = delta
                continue
            }
            carried = 0
            try vlq(delta, event: i)
            switch e.kind {
            case .message(let m):
                if case .systemExclusive(let s) = m {
                    out.append(0xF0)
                    try vlq(s.payload.count + 1, event: i)
                    out += s.payload
                    out.append(0xF7)
                    status = 0
                } else if let short = m.shortMessage, short.isChannelMessage {
                    if !(useRunningStatus && short.status == status) { out.append(short.status) }
                    out.append(short.data1)
                    if short.count == 3 { out.append(short.data2) }
                    status = short.status
                } else if let short = m.shortMessage {
                    out.append(0xF7)
                    try vlq(short.count, event: i)
                    out += short.bytes
                    status = 0
                }
            case .sysEx(let data):
                guard data.dropLast().allSatisfy({ $0 < 0x80 }) else {
                    throw MIDIFileError(.unwritableEvent("SysEx data byte with the high bit set"), track: index, offset: i)
                }
                out.append(0xF0)
                try vlq(data.count, event: i)
                out += data
                status = 0
            case .escape(let data):
                out.append(0xF7)
                try vlq(data.count, event: i)
                out += data
                status = 0
            case .meta(let m):
                out.append(0xFF)
                out.append(m.type)
                try vlq(m.data.count, event: i)
                out += m.data
                status = 0
            }
        }
        try vlq(carried, event: track.events.count)
        out += [0xFF, MIDIMetaEvent.endOfTrackType, 0]
        return out
    }
}

extension Array where Element == UInt8 {
    mutating func appendBE16(_ v: UInt16) { append(UInt8(v >> 8)); append(UInt8(v & 0xFF)) }
    mutating func appendBE32(_ v: UInt32) {
        append(UInt8(v >> 24)); append(UInt8(v >> 16 & 0xFF)); append(UInt8(v >> 8 & 0xFF)); append(UInt8(v & 0xFF))
    }
    /// Appends `v` (0…0x0FFFFFFF) as a MIDI variable-length quantity, most significant group first.
    mutating func appendVLQ(_ v: Int) {
        var shift = 21
        while shift > 0 && v >> shift == 0 { shift -= 7 }
        while shift > 0 {
            append(UInt8(v >> shift & 0x7F) | 0x80)
            shift -= 7
        }
        append(UInt8(v & 0x7F))
    }
}
