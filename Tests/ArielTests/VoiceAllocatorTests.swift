import Ariel
import Testing

@Suite struct VoiceAllocatorTests {
    @Test func usesFreeVoicesFirstInOrder() {
        var a = VoiceAllocator(capacity: 4)
        #expect(a.noteOn(note: 60).voice == 0)
        #expect(a.noteOn(note: 64).voice == 1)
        #expect(a.noteOn(note: 67).voice == 2)
        #expect(a.activeCount == 3)
    }

    @Test func repeatedNoteRestartsTheSameVoice() {
        var a = VoiceAllocator(capacity: 4)
        _ = a.noteOn(note: 60)
        a.noteOff(note: 60) { _ in }
        let again = a.noteOn(note: 60)
        #expect(again == .init(voice: 0, stolenNote: nil, isRetrigger: true))
        // The same note on another channel is a different note.
        #expect(a.noteOn(note: 60, channel: 1).voice == 1)
    }

    @Test func prefersTheLongestReleasedVoiceOverHeldOnes() {
        var a = VoiceAllocator(capacity: 3)
        _ = a.noteOn(note: 60)
        _ = a.noteOn(note: 62)
        _ = a.noteOn(note: 64)
        a.noteOff(note: 62) { _ in }
        a.noteOff(note: 60) { _ in }
        // 62 was released first, so its voice (1) goes before 60's (0); held 64 is untouched.
        #expect(a.noteOn(note: 70) == .init(voice: 1, stolenNote: 62, isRetrigger: false))
        #expect(a.noteOn(note: 71) == .init(voice: 0, stolenNote: 60, isRetrigger: false))
    }

    @Test func stealsTheOldestHeldVoiceWhenAllAreHeld() {
        var a = VoiceAllocator(capacity: 3)
        for n: UInt8 in [60, 62, 64] { _ = a.noteOn(note: n) }
        #expect(a.noteOn(note: 65) == .init(voice: 0, stolenNote: 60, isRetrigger: false))
        #expect(a.noteOn(note: 67) == .init(voice: 1, stolenNote: 62, isRetrigger: false))
        // Note-off for a stolen note releases nothing.
        var released: [Int] = []
        a.noteOff(note: 60) { released.append($0) }
        #expect(released.isEmpty)
        a.noteOff(note: 65) { released.append($0) }
        #expect(released == [0])
    }

    @Test func idleVoicesBecomeFreeAgain() {
        var a = VoiceAllocator(capacity: 2)
        _ = a.noteOn(note: 60)
        _ = a.noteOn(note: 61)
        a.noteOff(note: 60) { _ in }
        a.voiceBecameIdle(0)
        #expect(a.noteOn(note: 62) == .init(voice: 0, stolenNote: nil, isRetrigger: false))
    }

    @Test func polyphonyLimitsTheVoicesUsed() {
        var a = VoiceAllocator(capacity: 8)
        a.setPolyphony(2)
        #expect(a.noteOn(note: 60).voice == 0)
        #expect(a.noteOn(note: 61).voice == 1)
        #expect(a.noteOn(note: 62) == .init(voice: 0, stolenNote: 60, isRetrigger: false))
    }

    @Test func releaseAllReleasesEveryHeldVoice() {
        var a = VoiceAllocator(capacity: 4)
        for n: UInt8 in [60, 62, 64] { _ = a.noteOn(note: n) }
        var released: [Int] = []
        a.releaseAll { released.append($0) }
        #expect(released == [0, 1, 2])
        #expect((0..<3).allSatisfy { a.state(of: $0) == .released })
    }
}
