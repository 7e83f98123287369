import Ariel
import Testing

/// Hand-built Standard MIDI Files: exact bytes for writing, and one malformed file per error.
@Suite struct MIDIFileTests {
    static func chunk(_ id: String, _ body: [UInt8], declaredLength: Int? = nil) -> [UInt8] {
        let n = declaredLength ?? body.count
        return Array(id.utf8) + [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + body
    }

    static func header(format: UInt8 = 0, tracks: UInt8 = 1, division: [UInt8] = [0, 96]) -> [UInt8] {
        chunk("MThd", [0, format, 0, tracks] + division)
    }

    /// Format 0, 96 PPQN: note on C4 and E4 (running status), both off a quarter later via note-on
    /// velocity 0 (running status), a tempo event between them (running status kept across meta).
    static let smallTrack: [UInt8] = [
        0x00, 0x90, 60, 100,
        0x00, 64, 100,
        0x60, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20,
        0x00, 60, 0,
        0x00, 64, 0,
        0x00, 0xFF, 0x2F, 0x00,
    ]

    @Test func readsRunningStatusAcrossMetaEvents() throws {
        let file = try MIDIFile(decoding: Self.header() + Self.chunk("MTrk", Self.smallTrack))
        #expect(file.format == .singleTrack)
        #expect(file.division == .ticksPerQuarterNote(96))
        let events = file.tracks[0].events
        #expect(events.count == 6)
        #expect(events[1] == .message(.noteOn(channel: 0, note: 64, velocity: 100)))
        #expect(events[2].delta == 96)
        #expect(events[2].kind == .meta(.tempo(microsecondsPerQuarterNote: 500_000)))
        #expect(events[3] == .message(.noteOn(channel: 0, note: 60, velocity: 0)))
        #expect(events[5].kind == .meta(.endOfTrack))
    }

    @Test func writesTheSameBytesWithRunningStatus() throws {
        let file = try MIDIFile(decoding: Self.header() + Self.chunk("MTrk", Self.smallTrack))
        // Our writer resets running status after meta events, so the event after the tempo keeps its status.
        var expected = Self.smallTrack
        expected.insert(0x90, at: 15)
        #expect(try file.encoded(runningStatus: true) == Self.header() + Self.chunk("MTrk", expected))
        let plain = try file.encoded(runningStatus: false)
        #expect(plain.count == Self.header().count + 8 + Self.smallTrack.count + 3)
        #expect(try MIDIFile(decoding: plain) == file)
    }

    @Test func variableLengthQuantitiesAtEveryBoundary() throws {
        let deltas = [0, 0x7F, 0x80, 0x3FFF, 0x4000, 0x1F_FFFF, 0x20_0000, 0x0FFF_FFFF]
        let encodings: [[UInt8]] = [[0x00], [0x7F], [0x81, 0x00], [0xFF, 0x7F], [0x81, 0x80, 0x00],
                                    [0xFF, 0xFF, 0x7F], [0x81, 0x80, 0x80, 0x00], [0xFF, 0xFF, 0xFF, 0x7F]]
        let track = MIDIFileTrack(events: deltas.map { .message(.programChange(channel: 0, program: 1), delta: $0) })
        let file = MIDIFile(format: .singleTrack, division: .ticksPerQuarterNote(480), tracks: [track])
        let bytes = try file.encoded(runningStatus: true)
        var expectedBody: [UInt8] = []
        for (i, e) in encodings.enumerated() { expectedBody += e + (i == 0 ? [0xC0, 1] : [1]) }
        expectedBody += [0x00, 0xFF, 0x2F, 0x00]
        #expect(Array(bytes[22...]) == expectedBody)
        #expect(try MIDIFile(decoding: bytes).tracks[0].events.map(\.delta) == deltas + [0])

        var tooBig = file
        tooBig.tracks[0].events[3].delta = 0x1000_0000
        #expect(throws: MIDIFileError(.valueOutOfRange(0x1000_0000), track: 0, offset: 3)) { try tooBig.encoded() }
    }

    @Test func metaEventsDecode() {
        #expect(MIDIMetaEvent.tempo(bpm: 150).microsecondsPerQuarterNote == 400_000)
        #expect(MIDIMetaEvent.timeSignature(numerator: 6, denominator: 8).data == [6, 3, 24, 8])
        #expect(MIDIMetaEvent.timeSignature(numerator: 6, denominator: 8).timeSignature?.denominator == 8)
        #expect(MIDIMetaEvent.keySignature(sharps: -3, minor: true).data == [0xFD, 1])
        #expect(MIDIMetaEvent.keySignature(sharps: -3, minor: true).keySignature! == (-3, true))
        #expect(MIDIMetaEvent.trackName("Piano é").text == "Piano é")
        #expect(MIDIMetaEvent.trackName("Piano é").data.last == 0xE9)
        #expect(MIDIMetaEvent(type: 0x51, data: [1, 2]).microsecondsPerQuarterNote == nil)
        #expect(MIDIMetaEvent.smpteOffset(hours: 1, minutes: 2, seconds: 3, frames: 4, subframes: 5).smpteOffset! == (1, 2, 3, 4, 5))
    }

    @Test func unknownChunksAreSkipped() throws {
        let bytes = Self.header() + Self.chunk("XFIH", [1, 2, 3, 0xFF, 0x90]) + Self.chunk("MTrk", Self.smallTrack)
            + Self.chunk("XFKM", [9, 9])
        let file = try MIDIFile(decoding: bytes)
        #expect(file.tracks.count == 1 && file.tracks[0].events.count == 6)
    }

    @Test func smpteDivisionIsParsed() throws {
        // −25 frames per second (0xE7), 40 ticks per frame: 1000 ticks per second, tempo ignored.
        let file = try MIDIFile(decoding: Self.header(division: [0xE7, 40]) + Self.chunk("MTrk", Self.smallTrack))
        #expect(file.division == .smpte(framesPerSecond: 25, ticksPerFrame: 40))
        #expect(file.tempoMap.seconds(atTick: 1000) == 1)
        #expect(try MIDIFile(decoding: file.encoded()).division == file.division)
    }

    // MARK: malformed files

    func expectError(_ bytes: [UInt8], _ error: MIDIFileError, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: error, sourceLocation: sourceLocation) { try MIDIFile(decoding: bytes) }
    }

    @Test func missingHeader() {
        expectError(Array("RIFF\0\0\0\u{4}RMID".utf8), MIDIFileError(.missingHeader, offset: 0))
        expectError([], MIDIFileError(.missingHeader, offset: 0))
        expectError(Self.chunk("MTrk", Self.smallTrack), MIDIFileError(.missingHeader, offset: 0))
    }

    @Test func truncatedFiles() {
        let good = Self.header() + Self.chunk("MTrk", Self.smallTrack)
        // Cut inside the track: the chunk declares 24 bytes but only 19 remain.
        expectError(Array(good.dropLast(5)),
                    MIDIFileError(.chunkOverrunsFile(chunk: "MTrk", declaredLength: 24, available: 19), track: 0, offset: 18))
        // Cut inside the header.
        expectError(Array(good.prefix(10)), MIDIFileError(.truncatedHeader(declaredLength: 6, available: 2), offset: 4))
        // Cut right after the header: the track is missing.
        expectError(Self.header(), MIDIFileError(.missingTracks(declared: 1, found: 0), offset: 14))
        let err = MIDIFileError(.chunkOverrunsFile(chunk: "MTrk", declaredLength: 24, available: 19), track: 0, offset: 18)
        #expect(err.description == "MIDI file: track 0 at byte 18: chunk 'MTrk' declares 24 bytes but only 19 remain")
    }

    @Test func wrongChunkLengths() {
        // Declared 6 bytes: the chunk ends inside the second note-on (offset 22 + 4 + 1).
        expectError(Self.header() + Self.chunk("MTrk", Array(Self.smallTrack.prefix(6))) + Array(Self.smallTrack.dropFirst(6)),
                    MIDIFileError(.truncatedEvent("a channel message"), track: 0, offset: 27))
        // Declared longer than the file.
        expectError(Self.header() + Self.chunk("MTrk", Self.smallTrack, declaredLength: 100),
                    MIDIFileError(.chunkOverrunsFile(chunk: "MTrk", declaredLength: 100, available: 24), track: 0, offset: 18))
        // A meta event whose length runs past the chunk.
        expectError(Self.header() + Self.chunk("MTrk", [0x00, 0xFF, 0x03, 0x10, 0x41]),
                    MIDIFileError(.truncatedEvent("meta event 0x3 (declares 16 bytes, 1 remain)"), track: 0, offset: 25))
        // An unknown chunk overrunning the file.
        expectError(Self.header() + Self.chunk("XFIH", [1], declaredLength: 9),
                    MIDIFileError(.chunkOverrunsFile(chunk: "XFIH", declaredLength: 9, available: 1), offset: 18))
    }

    @Test func badVariableLengthQuantity() {
        expectError(Self.header() + Self.chunk("MTrk", [0x81, 0x80, 0x80, 0x80, 0x00, 0x90, 60, 100]),
                    MIDIFileError(.badVariableLengthQuantity, track: 0, offset: 22))
        expectError(Self.header() + Self.chunk("MTrk", [0x81, 0x80]),
                    MIDIFileError(.truncatedEvent("a delta time"), track: 0, offset: 24))
    }

    @Test func runningStatusWithNoPreviousStatus() {
        let second = Self.chunk("MTrk", [0x00, 0xFF, 0x2F, 0x00])
        let bad = Self.chunk("MTrk", [0x00, 0xF0, 0x02, 0x01, 0xF7, 0x00, 0x3C, 0x40])  // SysEx cancels running status
        let bytes = Self.header(format: 1, tracks: 2) + second + bad
        let error = MIDIFileError(.runningStatusWithoutStatus, track: 1, offset: 14 + 12 + 8 + 6)
        expectError(bytes, error)
        #expect(error.description == "MIDI file: track 1 at byte 40: running status with no previous status")
        expectError(Self.header() + Self.chunk("MTrk", [0x00, 0x3C, 0x40]), MIDIFileError(.runningStatusWithoutStatus, track: 0, offset: 23))
    }

    @Test func headerAndStatusErrors() {
        expectError(Self.header(format: 3), MIDIFileError(.unsupportedFormat(3), offset: 8))
        expectError(Self.header(format: 0, tracks: 2), MIDIFileError(.formatZeroTrackCount(2), offset: 10))
        expectError(Self.header(division: [0, 0]), MIDIFileError(.invalidDivision(0), offset: 12))
        expectError(Self.header(division: [0xE6, 4]), MIDIFileError(.invalidDivision(0xE604), offset: 12))
        expectError(Self.header() + Self.chunk("MTrk", [0x00, 0xF1, 0x00]), MIDIFileError(.invalidStatusByte(0xF1), track: 0, offset: 23))
        expectError(Self.header() + Self.chunk("MTrk", [0x00, 0x90, 0x3C, 0x80]), MIDIFileError(.dataByteOutOfRange(0x80), track: 0, offset: 25))
    }

    @Test func format2IsRead() throws {
        let t = Self.chunk("MTrk", Self.smallTrack)
        let file = try MIDIFile(decoding: Self.header(format: 2, tracks: 2) + t + t)
        #expect(file.format == .multiSequence && file.tracks.count == 2)
    }

    @Test func tempoMapConvertsBothWays() {
        // 480 PPQN: 120 BPM, at tick 960 → 60 BPM, at tick 1440 → 240 BPM.
        let map = MIDITempoMap(division: .ticksPerQuarterNote(480),
                               tempoChanges: [(1440, 250_000), (960, 1_000_000)])
        #expect(map.seconds(atTick: 960) == 1.0)
        #expect(map.seconds(atTick: 1440) == 2.0)
        #expect(map.seconds(atTick: 1920) == 2.25)
        #expect(abs(map.tick(atSeconds: 2.25) - 1920) < 1e-9)
        #expect(abs(map.tick(atSeconds: 1.5) - 1200) < 1e-9)
        #expect(map.bpm(atTick: 1000) == 60)
        #expect(map.bpm(atTick: 0) == 120)
    }
}
