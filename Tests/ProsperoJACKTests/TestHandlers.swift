import CJACKLoader
import Foundation
import ProsperoJACK
import Synchronization

/// Renders a sine on each channel (left and right frequencies may differ) at a fixed peak level.
final class SineHandler: JACKProcessHandler, @unchecked Sendable {
    let leftFrequency: Double
    let rightFrequency: Double
    let amplitude: Float
    private var sampleRate = 48_000.0
    private var leftPhase = 0.0
    private var rightPhase = 0.0
    let flushToZeroSeen = Atomic<Int>(0)
    let flushToZeroMissing = Atomic<Int>(0)

    init(leftFrequency: Double, rightFrequency: Double, peakDBFS: Double) {
        self.leftFrequency = leftFrequency
        self.rightFrequency = rightFrequency
        amplitude = Float(pow(10, peakDBFS / 20))
    }

    func prepare(sampleRate: Double, maximumFrames: Int) {
        self.sampleRate = sampleRate
    }

    func process(
        frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
        midiIn: JACKMIDIInput, midiOut: inout JACKMIDIOutput
    ) {
        if pj_fpu_flush_to_zero_enabled() != 0 {
            flushToZeroSeen.add(1, ordering: .relaxed)
        } else {
            flushToZeroMissing.add(1, ordering: .relaxed)
        }
        let leftStep = 2 * Double.pi * leftFrequency / sampleRate
        let rightStep = 2 * Double.pi * rightFrequency / sampleRate
        for i in 0..<frameCount {
            left[i] = amplitude * Float(sin(leftPhase))
            right[i] = amplitude * Float(sin(rightPhase))
            leftPhase += leftStep
            rightPhase += rightStep
            if leftPhase > 2 * .pi { leftPhase -= 2 * .pi }
            if rightPhase > 2 * .pi { rightPhase -= 2 * .pi }
        }
    }
}

/// One scheduled or received MIDI message with its absolute frame (frames since the handler's first period).
struct TimedMIDI: Equatable, CustomStringConvertible {
    var frame: Int
    var bytes: [UInt8]
    var description: String { "\(frame): " + bytes.map { String(format: "%02x", $0) }.joined(separator: " ") }
}

/// Sends a script of MIDI messages once armed, records MIDI input and prepare calls.
final class ScriptedMIDIHandler: JACKProcessHandler, @unchecked Sendable {
    /// Messages to send, frames relative to the first period after arming; sent in this order,
    /// which need not be time order.
    let script: [TimedMIDI]
    private let received: UnsafeMutablePointer<(frame: Int, size: Int, b0: UInt8, b1: UInt8, b2: UInt8)>
    private let receivedCapacity = 4096
    let receivedCount = Atomic<Int>(0)
    let armed = Atomic<Bool>(false)
    /// Absolute frame at which the script started, -1 before.
    let scriptStart = Atomic<Int>(-1)
    let scriptFinished = Atomic<Bool>(false)
    let largestPeriod = Atomic<Int>(0)
    let lastPeriod = Atomic<Int>(0)
    /// The handler's frame count at the start of the latest period, -1 before the first.
    let latestPeriodStart = Atomic<Int>(-1)
    let prepares = Mutex<[(sampleRate: Double, maximumFrames: Int)]>([])
    let stalls = Atomic<Int>(0)
    private var nextScriptIndex = 0
    private var frame = 0

    init(script: [TimedMIDI] = []) {
        self.script = script
        received = .allocate(capacity: receivedCapacity)
    }

    deinit { received.deallocate() }

    func prepare(sampleRate: Double, maximumFrames: Int) {
        prepares.withLock { $0.append((sampleRate, maximumFrames)) }
    }

    func process(
        frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
        midiIn: JACKMIDIInput, midiOut: inout JACKMIDIOutput
    ) {
        if stalls.load(ordering: .relaxed) > 0 {
            stalls.subtract(1, ordering: .relaxed)
            usleep(60_000) // test-only: overrun the period to provoke an xrun
        }
        lastPeriod.store(frameCount, ordering: .relaxed)
        latestPeriodStart.store(frame, ordering: .releasing)
        if frameCount > largestPeriod.load(ordering: .relaxed) { largestPeriod.store(frameCount, ordering: .relaxed) }
        var count = receivedCount.load(ordering: .relaxed)
        for event in midiIn where count < receivedCapacity {
            received[count] = (frame + event.frame, event.bytes.count, event.status, event.data1, event.data2)
            count += 1
        }
        receivedCount.store(count, ordering: .releasing)

        if armed.load(ordering: .acquiring) && scriptStart.load(ordering: .relaxed) < 0 {
            scriptStart.store(frame, ordering: .relaxed)
        }
        let start = scriptStart.load(ordering: .relaxed)
        if start >= 0 {
            let blockStart = frame - start
            // Send every message of this period, in script order.
            for message in script {
                let offset = message.frame - blockStart
                if offset >= 0 && offset < frameCount {
                    message.bytes.withUnsafeBufferPointer { _ = midiOut.send(bytes: $0, atFrame: offset) }
                }
            }
            if script.allSatisfy({ $0.frame < blockStart + frameCount }) {
                scriptFinished.store(true, ordering: .releasing)
            }
        }
        frame += frameCount
    }

    /// What arrived on midi_in, with absolute frames. Read after the client stopped, or after receivedCount settled.
    var receivedMessages: [TimedMIDI] {
        let count = receivedCount.load(ordering: .acquiring)
        return (0..<count).map { i in
            let r = received[i]
            return TimedMIDI(frame: r.frame, bytes: Array([r.b0, r.b1, r.b2].prefix(r.size)))
        }
    }
}

/// Silence, except one callback that spins until its thread has used `cpuNanoseconds` of CPU time (to overrun
/// the period with our own work, whatever else the machine runs).
final class OverrunningHandler: JACKProcessHandler, @unchecked Sendable {
    let atCallback: Int
    let cpuNanoseconds: UInt64
    let overran = Atomic<Bool>(false)
    private var callbacks = 0

    init(atCallback: Int, cpuNanoseconds: Int64) {
        self.atCallback = atCallback
        self.cpuNanoseconds = UInt64(cpuNanoseconds)
    }

    func prepare(sampleRate: Double, maximumFrames: Int) {}

    func process(
        frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
        midiIn: JACKMIDIInput, midiOut: inout JACKMIDIOutput
    ) {
        callbacks += 1
        guard callbacks == atCallback else { return }
        let start = pj_thread_cpu_nanoseconds()
        while pj_thread_cpu_nanoseconds() &- start < cpuNanoseconds {}
        overran.store(true, ordering: .releasing)
    }
}
