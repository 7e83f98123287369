import Foundation
import Haptics
import ProsperoTestSupport
import Testing

@Suite(.ownThread) struct AHAPTests {
    /// haptics.md §1's minimal example, verbatim.
    static let example = """
    {"Version":1.0,"Metadata":{"Project":"demo"},"Pattern":[
     {"Event":{"Time":0.0,"EventType":"HapticTransient","EventParameters":[
       {"ParameterID":"HapticIntensity","ParameterValue":0.4},
       {"ParameterID":"HapticSharpness","ParameterValue":0.2}]}},
     {"Event":{"Time":0.3,"EventType":"HapticContinuous","EventDuration":0.2,"EventParameters":[
       {"ParameterID":"HapticIntensity","ParameterValue":0.8},
       {"ParameterID":"HapticSharpness","ParameterValue":0.3},
       {"ParameterID":"Sustained","ParameterValue":1}]}},
     {"ParameterCurve":{"ParameterID":"HapticIntensityControl","Time":0.3,
       "ParameterCurveControlPoints":[{"Time":0,"ParameterValue":0.3},
       {"Time":0.1,"ParameterValue":1},{"Time":0.2,"ParameterValue":0.3}]}}]}
    """

    @Test func readsTheReferenceExample() throws {
        let p = try HapticPattern(ahap: Self.example)
        #expect(p.version == 1)
        #expect(p.metadata.count == 1 && p.metadata[0].key == "Project" && p.metadata[0].value == "demo")
        #expect(p.events.count == 2 && p.curves.count == 1 && p.parameters.isEmpty)
        #expect(p.events[0].type == .hapticTransient && p.events[0].time == 0 && p.events[0].duration == nil)
        #expect(p.events[0].intensity == 0.4 && p.events[0].sharpness == 0.2)
        #expect(p.events[1].type == .hapticContinuous && p.events[1].time == 0.3 && p.events[1].duration == 0.2)
        #expect(p.events[1].value(of: .sustained) == 1 && p.events[1].intensity == 0.8)
        // Curve times are relative to the curve's start: 0.35 s is halfway from 0.3 to 1.
        #expect(abs(p.control(.hapticIntensityControl, at: 0.35) - 0.65) < 1e-12)
        #expect(abs(p.control(.hapticIntensityControl, at: 0.4) - 1) < 1e-12)
        #expect(p.control(.hapticIntensityControl, at: 0.1) == 1, "before the curve: the default ×1")
        // Duration rule: the latest of 0.3 + 0.2 (event) and 0.3 + 0.2 (curve's last point).
        #expect(abs(p.duration - 0.5) < 1e-12)
    }

    @Test func writesAndReadsBackTheSameValues() throws {
        let p = try HapticPattern(ahap: Self.example)
        let text = p.ahapJSON()
        #expect(text.contains("\"EventDuration\": 0.2") && text.contains("\"ParameterValue\": 0.4"))
        #expect(!text.contains("\"Duration\"") && !text.contains("\"Value\""), "Apple's real keys, not the article's")
        let back = try HapticPattern(ahap: text)
        #expect(back == p)
        #expect(try HapticPattern(ahap: back.ahapJSON()) == p)
    }

    @Test func everyFieldRoundTrips() throws {
        var audio = HapticEvent(.audioCustom, time: 1.25, duration: 0.5, parameters: [(.audioVolume, 0.7), (.audioPitch, -0.25), (.audioPan, 0.5)])
        audio.waveformPath = "sounds/ding.caf"
        audio.waveformUseVolumeEnvelope = true
        audio.waveformLoopEnabled = false
        let p = HapticPattern(
            events: [
                HapticEvent(.hapticContinuous, time: 0.1, duration: 2, parameters: [
                    (.hapticIntensity, 0.5), (.hapticSharpness, 0.9), (.attackTime, 0.2), (.decayTime, 0.3), (.releaseTime, 0.4), (.sustained, 0),
                ]),
                HapticEvent(.audioContinuous, time: 0.2, duration: 1, parameters: [(.audioBrightness, 0.1)]),
                audio,
            ],
            parameters: [HapticDynamicParameter(.hapticSharpnessControl, value: -0.5, time: 0.5),
                         HapticDynamicParameter(.audioReleaseTimeControl, value: 0.25, time: 0.7)],
            curves: [HapticParameterCurve(.audioPanControl, time: 1, points: [.init(time: 0, value: -1), .init(time: 0.5, value: 1)])],
            metadata: [("Project", "Prospero"), ("Description", "a \"quoted\" line\n")])
        #expect(try HapticPattern(ahap: p.ahapJSON()) == p)
        #expect(try HapticPattern(ahap: p.ahapDocument().encoded()) == p)
    }

    @Test func unknownKeysAreIgnored() throws {
        let text = """
        {"Version":1,"Generator":{"name":"x"},"Pattern":[{"Event":{"Time":0.5,"EventType":"HapticTransient","Colour":"red",
         "EventParameters":[{"ParameterID":"HapticIntensity","ParameterValue":0.9,"Note":[1,2]}]},"Extra":true}]}
        """
        let p = try HapticPattern(ahap: text)
        #expect(p.events == [HapticEvent(.hapticTransient, time: 0.5, parameters: [(.hapticIntensity, 0.9)])])
    }

    @Test func outOfRangeValuesAreClamped() throws {
        let text = """
        {"Pattern":[
         {"Event":{"Time":-1,"EventType":"HapticContinuous","EventDuration":45,"EventParameters":[
           {"ParameterID":"HapticIntensity","ParameterValue":1.5},{"ParameterID":"HapticSharpness","ParameterValue":-0.2}]}},
         {"Event":{"Time":0,"EventType":"AudioContinuous","EventDuration":1,"EventParameters":[
           {"ParameterID":"AudioPan","ParameterValue":-3},{"ParameterID":"AudioPitch","ParameterValue":2}]}},
         {"Parameter":{"ParameterID":"HapticIntensityControl","ParameterValue":2,"Time":0}},
         {"Parameter":{"ParameterID":"HapticSharpnessControl","ParameterValue":-7,"Time":0}},
         {"ParameterCurve":{"ParameterID":"AudioVolumeControl","Time":0,"ParameterCurveControlPoints":[{"Time":0,"ParameterValue":-1}]}}]}
        """
        let p = try HapticPattern(ahap: text)
        #expect(p.version == 1, "missing Version takes 1.0")
        #expect(p.events[0].time == 0 && p.events[0].duration == 30, "continuous events last at most 30 s")
        #expect(p.events[0].intensity == 1 && p.events[0].sharpness == 0)
        #expect(p.events[1].value(of: .audioPan) == -1 && p.events[1].value(of: .audioPitch) == 1)
        #expect(p.parameters[0].value == 1 && p.parameters[1].value == -1)
        #expect(p.curves[0].points[0].value == 0)
    }

    @Test func missingParametersTakeTheirDefaults() throws {
        let p = try HapticPattern(ahap: #"{"Pattern":[{"Event":{"EventType":"HapticContinuous","EventDuration":1}}]}"#)
        let e = p.events[0]
        #expect(e.time == 0 && e.intensity == 1 && e.sharpness == 0.5 && e.value(of: .sustained) == 1 && e.value(of: .attackTime) == 0)
    }

    static func curve(points n: Int) -> HapticParameterCurve {
        // A zig-zag so that every point matters.
        HapticParameterCurve(.hapticIntensityControl, time: 0.5, points: (0..<n).map {
            .init(time: Double($0) * 0.05, value: $0 % 2 == 0 ? 0.2 + 0.01 * Double($0) : 0.9)
        })
    }

    @Test func curvesOf16PointsStayWholeAnd17AreSplit() throws {
        let sixteen = HapticPattern(curves: [Self.curve(points: 16)])
        #expect(sixteen.curves.count == 1 && sixteen.curves[0].points.count == 16)

        let original = Self.curve(points: 17)
        let split = HapticPattern(curves: [original])
        #expect(split.curves.count == 2)
        #expect(split.curves.map(\.points.count) == [16, 2])
        // The second piece starts on the first piece's last point (time 0.5 + 15 × 0.05 = 1.25).
        #expect(abs(split.curves[1].time - 1.25) < 1e-12 && split.curves[1].points[0].time == 0)
        #expect(split.curves.allSatisfy { $0.points.count <= HapticParameterCurve.maximumPointCount })
        for k in 50...140 {
            let t = Double(k) * 0.01
            #expect(abs(split.control(.hapticIntensityControl, at: t) - original.value(at: t)) < 1e-9, "t \(t)")
        }
        // Reading a 17-point curve from a file splits it the same way, and writes back split.
        let text = """
        {"Pattern":[{"ParameterCurve":{"ParameterID":"HapticIntensityControl","Time":0.5,"ParameterCurveControlPoints":[\
        \((0..<17).map { "{\"Time\":\(Double($0) * 0.05),\"ParameterValue\":\($0 % 2 == 0 ? 0.2 + 0.01 * Double($0) : 0.9)}" }.joined(separator: ","))]}}]}
        """
        let read = try HapticPattern(ahap: text)
        #expect(read.curves.map(\.points.count) == [16, 2])
        #expect(try HapticPattern(ahap: read.ahapJSON()) == read)
        // 40 points → 16, 16, 10 (each piece repeats the previous piece's last point).
        #expect(HapticPattern(curves: [Self.curve(points: 40)]).curves.map(\.points.count) == [16, 16, 10])
    }

    @Test func laterControlsReplaceEarlierOnes() {
        let p = HapticPattern(
            parameters: [HapticDynamicParameter(.hapticIntensityControl, value: 0.5, time: 1)],
            curves: [HapticParameterCurve(.hapticIntensityControl, time: 2, points: [.init(time: 0, value: 0.2), .init(time: 1, value: 0.4)])])
        #expect(p.control(.hapticIntensityControl, at: 0.5) == 1)
        #expect(p.control(.hapticIntensityControl, at: 1.5) == 0.5)
        #expect(abs(p.control(.hapticIntensityControl, at: 2.5) - 0.3) < 1e-12)
        #expect(p.control(.hapticIntensityControl, at: 9) == 0.4, "a curve holds its last value")
        #expect(abs(p.duration - 3) < 1e-12)
        // The sweep over many times gives the same values as asking one time at a time.
        let times = (0..<400).map { Double($0) * 0.01 }
        #expect(p.control(.hapticIntensityControl, at: times) == times.map { p.control(.hapticIntensityControl, at: $0) })
    }

    @Test func transientDurationPadsThePattern() throws {
        let p = try HapticPattern(ahap: #"{"Pattern":[{"Event":{"Time":1,"EventType":"HapticTransient","EventDuration":0.75}},{"Event":{"Time":1.5,"EventType":"HapticTransient"}}]}"#)
        #expect(p.duration == 1.75)
    }

    @Test func badFilesSayWhatIsWrong() {
        func problem(_ text: String) -> HapticPatternError? {
            do { _ = try HapticPattern(ahap: text); return nil } catch { return error }
        }
        #expect(problem("[1]")?.problem == .notAnObject)
        #expect(problem("{\"Version\":1}")?.problem == .missingPattern)
        #expect(problem(#"{"Pattern":[{"Event":{"EventType":"Buzz"}}]}"#) == HapticPatternError(entry: 0, .unknownEventType("Buzz")))
        #expect(problem(#"{"Pattern":[{"Event":{"EventType":"HapticTransient"}},{"Event":{}}]}"#) == HapticPatternError(entry: 1, .missingField("EventType")))
        #expect(problem(#"{"Pattern":[{"Event":{"EventType":"HapticTransient","Time":"0"}}]}"#)?.problem == .wrongType(field: "Time", expected: "a number"))
        #expect(problem(#"{"Pattern":[{"Event":{"EventType":"HapticTransient","EventParameters":[{"ParameterID":"Loudness","ParameterValue":1}]}}]}"#)?.problem == .unknownParameter("Loudness"))
        #expect(problem(#"{"Pattern":[{"ParameterCurve":{"ParameterID":"HapticAttackTimeControl","ParameterCurveControlPoints":[]}}]}"#)?.problem == .notACurveParameter("HapticAttackTimeControl"))
        #expect(problem(#"{"Pattern":[{"Event":{"EventType":"HapticTransient"},"Parameter":{}}]}"#)?.problem == .unknownEntry)
        if case .json? = problem("{\"Pattern\":[")?.problem {} else { Issue.record("truncated JSON is a JSON error") }
        if case .json? = problem(String(repeating: "[", count: 500))?.problem {} else { Issue.record("deep nesting is refused") }
        #expect(problem(#"{"Pattern":[]}"#) == nil)
        let message = "\(HapticPatternError(entry: 3, .missingField("EventType")))"
        #expect(message.contains("Pattern[3]") && message.contains("EventType"))
    }

    @Test func pythonReadsTheWrittenFile() throws {
        try TestPeers.require(TestPeers.executable("python3") != nil, "python3")
        let p = try HapticPattern(ahap: Self.example)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ahap-\(getpid()).ahap")
        try p.ahapJSON().write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPeers.executable("python3")!)
        process.arguments = ["-c", """
        import json, sys
        d = json.load(open(sys.argv[1]))
        e = [x["Event"] for x in d["Pattern"] if "Event" in x]
        c = [x["ParameterCurve"] for x in d["Pattern"] if "ParameterCurve" in x]
        print(d["Version"], len(e), e[1]["EventDuration"], e[0]["EventParameters"][0]["ParameterValue"], c[0]["ParameterCurveControlPoints"][1]["Time"])
        """, url.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0)
        #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == "1 2 0.2 0.4 0.1")
    }
}
