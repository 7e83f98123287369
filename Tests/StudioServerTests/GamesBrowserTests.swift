import Foundation
import Games
import Haptics
import ProsperoTestSupport
import Studio
import Testing

/// The three games in real headless Chromium against an in-process studio that offers them (the home
/// button after 2 s here, so the test stays short): Browser/games_play.py plays each page with pointer
/// events and records `navigator.vibrate`; this test compares what the page did with the instruments: every
/// burst the page got carries the web renderer's pattern of its events and is vibrated once with it (or with the
/// part the page's clock says had not yet passed), unless a later burst replaced it; and the swipe and the hold set
/// what the game's model computes from the same touch frames. When each burst plays is judged on a fake clock: the
/// page's haptics code, with a player and a clock sync of its own and one of the game's patterns, on a clock the
/// script moves by hand (``checkScheduler(_:_:)``, ``checkSessionClock(_:_:)``). Screenshots: games-*.png (in
/// `StudioBrowserTests.screenshots`).
@Suite("Games in Chromium", .serialized, .takingTurns())
struct GamesBrowserTests {
    static let browser = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Browser")

    static var available: Bool {
        TestPeers.executable("chromium") != nil && TestPeers.executable("chromedriver") != nil && TestPeers.python(module: "selenium")
    }

    /// haptics.js: a burst later than this (ms) is not played; up to `trimAfter` late it plays whole, later cut.
    static let lateLimit = 1000.0, trimAfter = 50.0

    /// `pattern` with its first `ms` cut away (the page's rule for a burst it got late), written here from the
    /// Vibration API's semantics: alternating on/off from on.
    static func trimmed(_ pattern: [Int], by ms: Int) -> [Int] {
        var out: [Int] = [], rest = ms, on = true
        for entry in pattern {
            if rest >= entry { rest -= entry; on.toggle(); continue }
            if out.isEmpty && !on { out.append(0) }
            out.append(entry - rest)
            rest = 0
            on.toggle()
        }
        return out.enumerated().contains { $0.offset % 2 == 0 && $0.element > 0 } ? out : []
    }

    /// What a burst `late` ms past its time plays: nothing past the limit, whole up to `trimAfter`, else the rest.
    static func played(_ pattern: [Int], late: Double) -> (cut: Int, pattern: [Int]) {
        if late > lateLimit { return (0, []) }
        let cut = late > trimAfter ? Int(late.rounded()) : 0
        return (cut, cut > 0 ? trimmed(pattern, by: cut) : pattern)
    }

    /// The indicator's light changes for `pattern` starting at `start` ms: lit through each "on" entry longer than 0,
    /// dark after the last; where several changes fall on one millisecond, the last one made holds.
    static func lights(_ pattern: [Int], from start: Double) -> [(t: Double, on: Bool)] {
        var changes: [(t: Double, on: Bool)] = [], t = start
        for (i, ms) in pattern.enumerated() {
            changes.append((t, i % 2 == 0 && ms > 0))
            t += Double(ms)
        }
        changes.append((t, false))
        var out: [(t: Double, on: Bool)] = [], state = false
        for (i, change) in changes.enumerated() where i + 1 == changes.count || changes[i + 1].t != change.t {
            if change.on != state { out.append(change); state = change.on }
        }
        return out
    }

    static func ints(_ value: Any?) -> [Int] { (value as? [Double] ?? []).map { Int($0) } }

    /// Recorded `navigator.vibrate` calls: (the clock's time in ms, pattern).
    static func vibrateCalls(_ value: Any?) -> [(t: Double, p: [Int])] {
        (value as? [[String: Any]] ?? []).map { (t: $0["t"] as? Double ?? .nan, p: ints($0["p"])) }
    }

    /// The page's log and vibrate calls against the instrument's bursts, up to the last one the page had when the script
    /// read its log: each one reached the page with the web renderer's pattern of its events and its time; it was
    /// played as its lateness on the page's clock says (whole, cut, or not at all), replaced by a later burst starting
    /// at or before its time, or still waiting for its time; and the page's vibrate calls are exactly the patterns it
    /// played, in the order it fired them. The page's clock sync agrees with the script's own within half the sum of
    /// their round trips (what the protocol's exchange guarantees on any load), and 0.5 ms for performance.now()'s
    /// coarsened readings.
    func checkHaptics(_ game: String, _ bursts: [GameHapticBurst], _ result: [String: Any]) {
        let page = result["page"] as? [String: Any] ?? [:]
        let log = page["log"] as? [[String: Any]] ?? []
        let lastSerial = Int(page["lastSerial"] as? Double ?? 0)
        let now = page["now"] as? Double ?? .nan
        let judged = bursts.filter { $0.serial <= lastSerial }
        #expect(!judged.isEmpty, "\(game): no haptic burst reached the page")
        var fired: [(at: Double, order: Int, pattern: [Int])] = []
        var played = 0, cut = 0, replaced = 0, waiting = 0, tooLate = 0
        for burst in judged {
            let expected = WebVibrationPattern(HapticPattern(events: burst.events)).pattern
            guard let index = log.firstIndex(where: { Int($0["serial"] as? Double ?? -1) == burst.serial }) else {
                Issue.record("\(game): the page never got burst \(burst.serial)")
                continue
            }
            let entry = log[index]
            #expect(Self.ints(entry["pattern"]) == expected, "\(game): burst \(burst.serial) came with \(Self.ints(entry["pattern"])), the renderer gives \(expected)")
            // (The studio's JSON writes a number to 15 significant digits: a few units of 10⁻¹⁵ s.)
            let time = entry["time"] as? Double ?? .nan
            #expect(abs(time - burst.time) < 1e-9, "\(game): burst \(burst.serial) came for \(time) s, sent for \(burst.time) s")
            guard let firedAt = entry["fired"] as? Double, let late = entry["late"] as? Double else {
                if judged.contains(where: { $0.serial > burst.serial && $0.time <= burst.time }) { replaced += 1 }
                else if let at = entry["at"] as? Double, at > now { waiting += 1 }
                else { Issue.record("\(game): burst \(burst.serial) never fired, and no later burst replaced it: \(entry)") }
                continue
            }
            let rule = Self.played(expected, late: late)
            #expect(Int(entry["cut"] as? Double ?? -1) == rule.cut, "\(game): burst \(burst.serial) fired \(late) ms late, cut \(String(describing: entry["cut"])) ms, the rule \(rule.cut)")
            let vibrated = entry["played"].map { Self.ints($0) } ?? []
            #expect(vibrated == rule.pattern, "\(game): burst \(burst.serial) \(late) ms late played \(vibrated), the rule \(rule.pattern)")
            if late > Self.lateLimit { tooLate += 1 } else if rule.cut > 0 { cut += 1 }
            if !vibrated.isEmpty { fired.append((firedAt, index, vibrated)); played += 1 }
        }
        let calls = Self.vibrateCalls(page["vibrations"]).map(\.p)
        let order = fired.sorted { ($0.at, $0.order) < ($1.at, $1.order) }.map(\.pattern)
        #expect(calls == order, "\(game): the page vibrated \(calls), the bursts it played were \(order)")

        let sync = result["sync"] as? [String: Any] ?? [:]
        let samples = page["samples"] as? [[String: Any]] ?? []
        let pageRTT = samples.compactMap { $0["rtt"] as? Double }.min() ?? .nan
        let pageOffset = page["offset"] as? Double ?? .nan, scriptOffset = sync["offset"] as? Double ?? .nan
        let scriptRTT = sync["rtt"] as? Double ?? .nan
        #expect(abs(pageOffset - scriptOffset) <= (pageRTT + scriptRTT) / 2 + 0.5,
                "\(game): the page's clock offset \(pageOffset) ms (round trip \(pageRTT) ms), the script's \(scriptOffset) ms (\(scriptRTT) ms)")
        print("\(game): \(judged.count) bursts: \(played) played (\(cut) of them cut), \(tooLate) too late, \(replaced) replaced, \(waiting) waiting for their time")
    }

    /// The page's player on a fake clock (games_play.py's SCHEDULE_CHECK), with the game's own pattern: each case's calls
    /// and their fake times (ms after the case's start) exactly, and the indicator's light through a pattern played on time.
    func checkScheduler(_ game: String, _ result: [String: Any]) {
        let pattern = Self.ints(result["pattern"])
        guard let scheduled = result["scheduled"] as? [String: Any], let cases = scheduled["cases"] as? [String: [String: Any]] else {
            Issue.record("\(game): no scheduler check")
            return
        }
        func expect(_ name: String, _ wanted: [(t: Double, p: [Int])]) {
            let got = Self.vibrateCalls(cases[name]?["calls"])
            let wanted = wanted.filter { !$0.p.isEmpty }
            #expect(got.count == wanted.count && zip(got, wanted).allSatisfy { $0.t == $1.t && $0.p == $1.p },
                    "\(game), \(name): vibrated \(got), expected \(wanted)")
        }
        func entry(_ name: String, _ i: Int = 0) -> [String: Any] {
            ((cases[name]?["entries"] as? [Any])?[i] as? [String: Any]) ?? [:]
        }
        let other = [40, 30, 60]

        // On time: nothing before, the whole pattern at its time, the indicator lit through it.
        let early = Self.vibrateCalls(cases["ahead"]?["early"])
        #expect(early.isEmpty, "\(game): vibrated before its time: \(early)")
        expect("ahead", [(250, pattern)])
        let lights = (cases["ahead"]?["lights"] as? [[String: Any]] ?? []).map { (t: $0["t"] as? Double ?? .nan, on: $0["on"] as? Bool ?? false) }
        let wantedLights = Self.lights(pattern, from: 250)
        #expect(lights.count == wantedLights.count && zip(lights, wantedLights).allSatisfy { $0.t == $1.t && $0.on == $1.on },
                "\(game): the indicator changed \(lights), expected \(wantedLights)")
        #expect(cases["ahead"]?["shown"] as? String == pattern.map(String.init).joined(separator: ","))
        // Late: whole up to 50 ms, then cut by its lateness; past a second, nothing.
        expect("late50", [(50, pattern)])
        #expect(entry("late50")["cut"] as? Double == 0 && entry("late50")["late"] as? Double == 50)
        expect("late51", [(51, Self.trimmed(pattern, by: 51))])
        #expect(entry("late51")["cut"] as? Double == 51)
        expect("past", [(200, Self.trimmed([150, 50, 100], by: 200))])
        #expect(entry("past")["cut"] as? Double == 200)
        expect("tooLate", [])
        #expect(entry("tooLate")["late"] as? Double == 1001 && entry("tooLate")["played"] is NSNull)
        expect("aSecond", [(1000, Self.trimmed(pattern, by: 1000))])
        // A millisecond ahead plays at once; two at their time.
        expect("soon1", [(124, pattern)])
        expect("soon2", [(125, pattern)])
        // Replaced by a later burst starting before or with it; kept when the later one starts after it.
        expect("replaced", [(250, other)])
        #expect(entry("replaced")["fired"] is NSNull)
        expect("sameTime", [(500, other)])
        #expect(entry("sameTime")["fired"] is NSNull)
        expect("kept", [(500, pattern), (750, other)])
        // A serial seen before: nothing; before the clock sync: at once.
        expect("stale", [])
        #expect(cases["stale"]?["logged"] as? Double == 0)
        expect("unsynced", [(0, pattern)])
        if let clock = scheduled["sessionClock"] as? [String: Any] { checkSessionClock(game, clock) } else { Issue.record("\(game): no clock check") }
    }

    /// The page's SessionClock on the fake clock against a scripted server (SCHEDULE_CHECK): it asks at `start`, six
    /// times 120 ms apart, then every 2 s; each answer's estimate is the true offset plus half the difference of its way
    /// up and down; the clock takes the estimate of the shortest round trip among the last 8 answers; it refuses answers
    /// of round trips over 5 s, from the future or without an audio clock; `restart` starts over; unwelcomed, it asks nothing.
    func checkSessionClock(_ game: String, _ clock: [String: Any]) {
        let start = clock["start"] as? Double ?? .nan, ahead = clock["ahead"] as? Double ?? .nan
        let asks = (clock["asks"] as? [[String: Any]] ?? []).map { (at: $0["at"] as? Double ?? .nan, t: $0["t"] as? Double ?? .nan) }
        var wanted = (0...6).map { start + 120 * Double($0) }
        while let last = wanted.last, last + 2000 <= start + 30000 { wanted.append(last + 2000) }
        #expect(asks.map(\.at) == wanted, "\(game): the clock asked at \(asks.map(\.at)), expected \(wanted)")
        #expect(asks.allSatisfy { $0.t == $0.at }, "\(game): an ask not stamped with the page's clock: \(asks)")
        let answered = (clock["answered"] as? [[String: Any]] ?? []).enumerated().map { i, a in
            (t: a["t"] as? Double ?? .nan, up: a["up"] as? Double ?? .nan, down: a["down"] as? Double ?? .nan, order: i)
        }
        /// The offset the rule gives from the answers arrived by `time`.
        func offset(by time: Double) -> (Double, Int) {
            let arrived = answered.filter { $0.t + $0.up + $0.down <= time }.sorted { ($0.t + $0.up + $0.down, $0.order) < ($1.t + $1.up + $1.down, $1.order) }
            let window = arrived.suffix(8)
            guard let best = window.min(by: { $0.up + $0.down < $1.up + $1.down }) else { return (.nan, 0) }
            return (ahead + (best.up - best.down) / 2, window.count)
        }
        let quick = clock["quick"] as? [String: Any] ?? [:], settled = clock["settled"] as? [String: Any] ?? [:]
        let (quickOffset, quickCount) = offset(by: start + 1800)
        #expect(quick["ready"] as? Bool == true && quick["samples"] as? Double == Double(quickCount))
        #expect(abs((quick["offset"] as? Double ?? .nan) - quickOffset) < 1e-6, "\(game): offset \(String(describing: quick["offset"])) after the quick asks, the rule \(quickOffset)")
        let (settledOffset, settledCount) = offset(by: start + 30000)
        let got = settled["offset"] as? Double ?? .nan
        #expect(settled["samples"] as? Double == Double(settledCount) && settledCount == 8)
        #expect(abs(got - settledOffset) < 1e-6, "\(game): offset \(got) after 30 s, the rule \(settledOffset)")
        #expect(settled["perfAt"] as? Double == 300 * 1000 - got && settled["now"] as? Double == ((settled["at"] as? Double ?? .nan) + got) / 1000)
        let refused = clock["refused"] as? [String: Any] ?? [:]
        #expect(refused["offset"] as? Double == got && refused["samples"] as? Double == 8, "\(game): a refused answer was taken: \(refused)")
        let restarted = clock["restarted"] as? [String: Any] ?? [:]
        #expect(restarted["ready"] as? Bool == false && restarted["samples"] as? Double == 0 && restarted["ready_after"] as? Bool == true)
        let again = (restarted["asks"] as? [Double]) ?? []
        #expect(again == (0...6).map { start + 30000 + 120 * Double($0) }, "\(game): after restart the clock asked at \(again)")
        #expect(clock["unwelcomedAsks"] as? Double == 0)
    }

    @Test("each game played by pointer events: hit and miss, swipe, hold; every burst vibrated with the renderer's pattern; its scheduling and clock sync on a fake clock; home after inactivity; screenshots",
          .enabled(if: TestPeers.enabled(available)))
    func games() async throws {
        _ = try TestPeers.require(TestPeers.executable("chromium"), "chromium (apt-get install chromium)")
        _ = try TestPeers.require(TestPeers.executable("chromedriver"), "chromedriver (apt-get install chromium-driver)")
        try TestPeers.require(TestPeers.python(module: "selenium"), "selenium (pip install selenium)")
        let harmony = HarmonyStudioInstrument(seed: 7, inactivityTimeout: 30)
        let vibe = VibeStudioInstrument(seed: 7, inactivityTimeout: 30)
        let touch = TouchStudioInstrument(seed: 7, inactivityTimeout: 2)
        let studio = try StudioTestServer(instruments: [StudioToneInstrument(), harmony, vibe, touch])
        defer { studio.stop() }
        try FileManager.default.createDirectory(at: StudioBrowserTests.screenshots, withIntermediateDirectories: true)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("games-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try await TestPeers.run("python3", [Self.browser.appendingPathComponent("games_play.py").path,
                                                      "http://127.0.0.1:\(studio.port)/", StudioBrowserTests.screenshots.path, output.path], timeout: 300)
        #expect(run.status == 0, "games_play.py: \(run.output)")
        guard run.status == 0 else { return }
        let results = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: [String: Any]])

        // The instruments' state, read under the session's lock.
        let (harmonyBursts, harmonyTrack) = studio.session.withInstrument("harmony") { _ in (harmony.bursts, harmony.track) } ?? ([], [])
        let (vibeBursts, vibeLog) = studio.session.withInstrument("vibe") { _ in (vibe.bursts, vibe.inputLog) } ?? ([], [])
        let (touchBursts, touchLog) = studio.session.withInstrument("touch") { _ in (touch.bursts, touch.inputLog) } ?? ([], [])

        // Harmony: the miss played nothing, the hit one phrase with the heavy pulse.
        #expect(results["harmony"]?["phrases"] as? Int == 1)
        #expect(harmonyTrack.count == HapticManager.heavyIntensities.count)
        checkHaptics("harmony", harmonyBursts, results["harmony"] ?? [:])
        checkScheduler("harmony", results["harmony"] ?? [:])

        // Vibe: the page shows what the model computes from the same frames (their rate from the server's own arrival
        // stamps); depth 0.1 + 0.9·0.7.
        var model = FeelYourVibe()
        for frame in vibeLog { _ = model.handle(frame) }
        let frequency = results["vibe"]?["frequency"] as? Double ?? .nan
        let depth = results["vibe"]?["depth"] as? Double ?? .nan
        #expect(abs(frequency - model.frequency) < 1e-3, "page \(frequency) Hz, model \(model.frequency) Hz")
        #expect(abs(depth - model.depth) < 1e-3 && abs(depth - 0.73) < 0.01, "depth \(depth)")
        #expect(model.crossings.count >= 5)
        checkHaptics("vibe", vibeBursts, results["vibe"] ?? [:])
        checkScheduler("vibe", results["vibe"] ?? [:])

        // Touch: the hold's volume is 1 − y as the model computes; the home button after the inactivity timeout (the
        // script saw it hidden while the finger played, then shown).
        var hold = TouchForMusic()
        for frame in touchLog { _ = hold.handle(frame) }
        let volume = results["touch"]?["volume"] as? Double ?? .nan
        #expect(abs(volume - hold.volume) < 1e-3 && abs(volume - 0.75) < 0.01, "volume \(volume), model \(hold.volume)")
        checkHaptics("touch", touchBursts, results["touch"] ?? [:])
        checkScheduler("touch", results["touch"] ?? [:])
    }
}
