/// Preallocated memory behind ``JACKMIDIOutput``: staged events, their bytes, and which
/// notes are sounding. Allocated once when a client opens; never resized on the audio thread.
@usableFromInline
package final class JACKMIDIOutputStorage: @unchecked Sendable {
    @usableFromInline
    struct StagedEvent {
        @usableFromInline var frame: UInt32
        @usableFromInline var offset: UInt32
        @usableFromInline var size: UInt32
        @usableFromInline init(frame: UInt32, offset: UInt32, size: UInt32) {
            self.frame = frame
            self.offset = offset
            self.size = size
        }
    }

    /// Most events one period can stage; more are dropped and counted.
    @usableFromInline let eventCapacity: Int
    /// Most bytes one period can stage (SysEx included).
    @usableFromInline let byteCapacity: Int
    @usableFromInline let events: UnsafeMutablePointer<StagedEvent>
    /// Scratch space of `eventCapacity` events for the stable merge of out-of-order periods.
    @usableFromInline let scratch: UnsafeMutablePointer<StagedEvent>
    @usableFromInline let bytes: UnsafeMutablePointer<UInt8>
    /// Two 64-bit words per channel: bit n set while note n sounds. Word 32: bit c set when
    /// channel c carried a channel message since its last All Notes Off (CC 123).
    /// Raw memory rather than stored `var`s, so the audio thread pays no exclusivity checks.
    @usableFromInline let sounding: UnsafeMutablePointer<UInt64>
    @usableFromInline static var usedChannelsWord: Int { 32 }

    @usableFromInline
    package init(eventCapacity: Int = 2048, byteCapacity: Int = 32_768) {
        precondition(eventCapacity > 0 && byteCapacity > 0)
        self.eventCapacity = eventCapacity
        self.byteCapacity = byteCapacity
        events = .allocate(capacity: eventCapacity)
        scratch = .allocate(capacity: eventCapacity)
        bytes = .allocate(capacity: byteCapacity)
        sounding = .allocate(capacity: 33)
        sounding.initialize(repeating: 0, count: 33)
    }

    deinit {
        events.deallocate()
        scratch.deallocate()
        bytes.deallocate()
        sounding.deallocate()
    }

    /// Forgets sounding notes (after the server went away and nothing can be sent).
    package func forgetSoundingNotes() {
        sounding.update(repeating: 0, count: 33)
    }

    /// A fresh output for one period of `frameCount` frames. The output holds no reference (the audio thread retains
    /// nothing): the storage must outlive it.
    @inlinable
    package func makeOutput(frameCount: Int) -> JACKMIDIOutput {
        JACKMIDIOutput(storage: self, frameCount: frameCount)
    }
}
