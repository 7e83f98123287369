extension MIDIFile {
    /// Reads a Standard MIDI File.
    ///
    /// Follows the SMF 1.0 specification: chunks other than MThd/MTrk are skipped, extra MThd bytes are
    /// ignored, variable-length quantities are at most 4 bytes, running status applies to channel
    /// messages (kept across meta events as many writers rely on, cancelled by SysEx events), and
    /// bytes after End of Track inside a chunk are ignored. A missing End of Track is tolerated.
    /// Every problem throws a `MIDIFileError` naming the track and byte offset.
    public init(decoding bytes: [UInt8]) throws(MIDIFileError) {
        guard bytes.count >= 8, bytes[0..<4].elementsEqual("MThd".utf8) else {
            throw MIDIFileError(.missingHeader, offset: 0)
        }
        let headerLength = Int(bytes.readBE32(at: 4))
        guard headerLength >= 6, bytes.count - 8 >= 6 else {
            throw MIDIFileError(.truncatedHeader(declaredLength: headerLength, available: bytes.count - 8), offset: 4)
        }
        guard headerLength <= bytes.count - 8 else {
            throw MIDIFileError(.chunkOverrunsFile(chunk: "MThd", declaredLength: headerLength, available: bytes.count - 8), offset: 4)
        }
        let formatValue = Int(bytes.readBE16(at: 8))
        guard let format = Format(rawValue: formatValue) else { throw MIDIFileError(.unsupportedFormat(formatValue), offset: 8) }
        let trackCount = Int(bytes.readBE16(at: 10))
        if format == .singleTrack && trackCount != 1 { throw MIDIFileError(.formatZeroTrackCount(trackCount), offset: 10) }
        let rawDivision = bytes.readBE16(at: 12)
        let division: Division
        if rawDivision & 0x8000 == 0 {
            guard rawDivision > 0 else { throw MIDIFileError(.invalidDivision(rawDivision), offset: 12) }
            division = .ticksPerQuarterNote(Int(rawDivision))
        } else {
            let fps = -Int(Int8(bitPattern: UInt8(rawDivision >> 8)))
            let tpf = Int(rawDivision & 0xFF)
            guard [24, 25, 29, 30].contains(fps), tpf > 0 else { throw MIDIFileError(.invalidDivision(rawDivision), offset: 12) }
            division = .smpte(framesPerSecond: fps, ticksPerFrame: tpf)
        }

        var tracks: [MIDIFileTrack] = []
        tracks.reserveCapacity(trackCount)
        var offset = 8 + headerLength
        while tracks.count < trackCount, offset + 8 <= bytes.count {
            let isTrack = bytes[offset..<offset + 4].elementsEqual("MTrk".utf8)
            let length = Int(bytes.readBE32(at: offset + 4))
            let start = offset + 8
            let available = bytes.count - start
            guard length <= available else {
                let id = String(decoding: bytes[offset..<offset + 4].map { $0 >= 0x20 && $0 < 0x7F ? $0 : 0x3F }, as: UTF8.self)
                throw MIDIFileError(.chunkOverrunsFile(chunk: id, declaredLength: length, available: available),
                                    track: isTrack ? tracks.count : nil, offset: offset + 4)
            }
            if isTrack {
                tracks.append(try Self.readTrack(bytes, from: start, to: start + length, index: tracks.count))
            }
            offset = start + length
        }
        guard tracks.count == trackCount else {
            throw MIDIFileError(.missingTracks(declared: trackCount, found: tracks.count), offset: offset)
        }
        self.init(format: format, division: division, tracks: tracks)
    }

    private static func readTrack(_ bytes: [UInt8], from start: Int, to end: Int, index: Int) throws(MIDIFileError) -> MIDIFileTrack {
        var events: [MIDIFileEvent] = []
        var p = start
        var runningStatus: UInt8 = 0

        func fail(_ reason: MIDIFileError.Reason, at offset: Int) -> MIDIFileError {
            MIDIFileError(reason, track: index, offset: offset)
        }
        func readVLQ(_ what: String) throws(MIDIFileError) -> Int {
            var value = 0
            let first = p
            for k in 0..<4 {
                guard p < end else { throw fail(.truncatedEvent(what), at: p) }
                let b = bytes[p]
                p += 1
                value = value << 7 | Int(b & 0x7F)
                if b < 0x80 { return value }
                if k == 3 { break }
            }
            throw fail(.badVariableLengthQuantity, at: first)
        }
        func readBlock(_ what: String) throws(MIDIFileError) -> [UInt8] {
            let lengthAt = p
            let length = try readVLQ("the length of \(what)")
            guard length <= end - p else { throw fail(.truncatedEvent("\(what) (declares \(length) bytes, \(end - p) remain)"), at: lengthAt) }
            defer { p += length }
            return Array(bytes[p..<p + length])
        }

        while p < end {
            let delta = try readVLQ("a delta time")
            guard p < end else { throw fail(.truncatedEvent("an event after its delta time"), at: p) }
            let eventStart = p
            var status = bytes[p]
            if status < 0x80 {
                guard runningStatus != 0 else { throw fail(.runningStatusWithoutStatus, at: eventStart) }
                status = runningStatus
            } else {
                p += 1
            }
            switch status {
            case 0xFF:
                guard p < end else { throw fail(.truncatedEvent("a meta event type"), at: p) }
                let type = bytes[p]
                p += 1
                let data = try readBlock("meta event 0x\(String(type, radix: 16, uppercase: true))")
                events.append(MIDIFileEvent(delta: delta, .meta(MIDIMetaEvent(type: type, data: data))))
                if type == MIDIMetaEvent.endOfTrackType { return MIDIFileTrack(events: events) }
            case 0xF0:
                runningStatus = 0
                events.append(MIDIFileEvent(delta: delta, .sysEx(try readBlock("a SysEx event"))))
            case 0xF7:
                runningStatus = 0
                events.append(MIDIFileEvent(delta: delta, .escape(try readBlock("an escape event"))))
            case 0x80...0xEF:
                runningStatus = status
                let n = MIDIShortMessage.dataByteCount(forStatus: status)
                guard end - p >= n else { throw fail(.truncatedEvent("a channel message"), at: eventStart) }
                let d1 = bytes[p]
                let d2 = n == 2 ? bytes[p + 1] : 0
                if d1 >= 0x80 { throw fail(.dataByteOutOfRange(d1), at: p) }
                if d2 >= 0x80 { throw fail(.dataByteOutOfRange(d2), at: p + 1) }
                p += n
                events.append(MIDIFileEvent(delta: delta, .message(MIDIMessage(MIDIShortMessage(unchecked: status, d1, d2)))))
            default:
                throw fail(.invalidStatusByte(status), at: eventStart)
            }
        }
        return MIDIFileTrack(events: events)
    }
}

extension Array where Element == UInt8 {
    func readBE16(at i: Int) -> UInt16 { UInt16(self[i]) << 8 | UInt16(self[i + 1]) }
    func readBE32(at i: Int) -> UInt32 {
        UInt32(self[i]) << 24 | UInt32(self[i + 1]) << 16 | UInt32(self[i + 2]) << 8 | UInt32(self[i + 3])
    }
}
