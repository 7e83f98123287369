import Foundation
import Games
import Haptics
import ProsperoTestSupport
import Studio
import Testing

/// The three games in real headless Chromium against an in-process studio that offers them (the home
/// button after 2 s here, so the test stays short): Browser/games_play.py plays each page with pointer
/// events and records `navigator.vibrate`; this test compares what the page did with the instruments:
/// each burst's pattern is the web renderer's pattern of its events, called within 50 ms of the burst's
/// session-clock time (mapped with the script's own clock sync), and the swipe and the hold set what the
/// game's model computes from the same touch frames. A burst the transport delivered late (a loaded
/// machine) must be played at once with what passed cut; the on-time path is checked on every machine with
/// bursts of known times given to the page's scheduler (``checkScheduler(_:_:)``). Screenshots: games-*.png (in `StudioBrowserTests.screenshots`).
@Suite("Games in Chromium", .serialized)
struct GamesBrowserTests {
    static let browser = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Browser")

    static var available: Bool {
        TestPeers.executable("chromium") != nil && TestPeers.executable("chromedriver") != nil && TestPeers.python(module: "selenium")
    }

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

    /// The page's vibrate calls against the instrument's bursts: each burst the page got in time (within
    /// 50 ms of its session-clock time, mapped with the script's own clock sync) is vibrated with the web
    /// renderer's pattern of its events within 50 ms of that time; one the transport delivered later (a
    /// loaded machine) is vibrated at once with the part not yet due. A burst that a later one replaced while it
    /// waited (the later one starting at or before its time carries its events) has no call of its own.
    func checkHaptics(_ game: String, _ bursts: [GameHapticBurst], _ result: [String: Any]) {
        let sync = result["sync"] as? [String: Any]
        let offset = sync?["offset"] as? Double ?? .nan
        var calls = Self.vibrateCalls(result["vibrations"])
        let page = result["page"] as? [String: Any]
        let log = (page?["log"] as? [[String: Any]]) ?? []
        // Feel Your Vibe pulses with the tremolo until the server hears that the page left, so bursts go on
        // after the script took the page's log. Those due later than `cutoff` (the log's time less the pulses'
        // 50 ms lead and a transport margin) are not judged, nor the vibrate calls they may already have made.
        let cutoff = (page?["now"] as? Double ?? .infinity) - 150
        #expect(!bursts.isEmpty, "\(game): no haptic burst")
        var onTime = 0, nothingToFeel = 0, afterTheLog = 0, replaced = 0
        for burst in bursts {
            let expected = WebVibrationPattern(HapticPattern(events: burst.events)).pattern
            let due = burst.time * 1000 - offset
            if due > cutoff { afterTheLog += 1; continue }
            let entry = log.first { ($0["serial"] as? Double).map { Int($0) } == burst.serial }
            guard let entry, let received = entry["received"] as? Double else { Issue.record("\(game): the page never got burst \(burst.serial)"); continue }
            guard let fired = entry["fired"] as? Double else {
                // Never fired: a later burst starting at or before this one's time came while it waited, carrying its
                // events, and replaced it (haptics.js `play`); any other unfired burst is lost.
                if bursts.contains(where: { $0.serial > burst.serial && $0.time <= burst.time }) { replaced += 1 }
                else { Issue.record("\(game): burst \(burst.serial) (due at \(due) ms) never fired, and no later burst replaced it") }
                continue
            }
            // Fired more than a second late (the page's main thread held up that long): too late to be felt, not played.
            if let pageLate = entry["late"] as? Double, pageLate > 1000 { nothingToFeel += 1; continue }
            let late = received - due
            // The page cuts what has passed by its own clock; that agrees with this test's within 2 ms.
            let cut = Int(entry["cut"] as? Double ?? 0)
            if late > 52 || cut > 0 { #expect(abs(Double(cut) - late) <= 2, "\(game): burst \(burst.serial) \(late) ms late, the page cut \(cut) ms") }
            let pattern = cut > 0 ? Self.trimmed(expected, by: cut) : expected
            if pattern.isEmpty { nothingToFeel += 1; continue }
            // Its call is the one made as it fired (the page stamps `fired`, then calls vibrate): matched by time, not by
            // order, since a burst that replaced an earlier one may come before it in time.
            guard let index = calls.firstIndex(where: { $0.t >= fired - 1 && $0.t - fired <= 5 }) else {
                Issue.record("\(game): no vibrate call for burst \(burst.serial) (fired at \(fired) ms, due at \(due) ms; calls at \(calls.map(\.t)))")
                continue
            }
            let call = calls.remove(at: index)
            #expect(call.p == pattern, "\(game): burst \(burst.serial) vibrated \(call.p), expected \(pattern) (renderer \(expected), \(late) ms late)")
            if cut == 0 {
                onTime += 1
                #expect(abs(call.t - due) <= 50, "\(game): burst \(burst.serial) vibrated at \(call.t) ms, due at \(due) ms")
            } else {
                print("\(game): burst \(burst.serial) reached the page \(late) ms after its time; the page cut \(cut) ms")
                #expect(call.t - received < 10, "\(game): late burst \(burst.serial) vibrated \(call.t - received) ms after it arrived")
            }
        }
        let unmatched = calls.filter { $0.t < cutoff - 50 }
        #expect(unmatched.isEmpty, "\(game): \(unmatched.count) vibrate calls without a burst")
        print("\(game): \(onTime) of \(bursts.count - afterTheLog) bursts vibrated on time, \(bursts.count - afterTheLog - onTime - nothingToFeel - replaced) late and cut, \(nothingToFeel) with nothing to vibrate, \(replaced) replaced by a later burst (\(afterTheLog) after the page's log was taken)")
    }

    /// The recorded `navigator.vibrate` calls: (performance.now() in ms, pattern).
    static func vibrateCalls(_ value: Any?) -> [(t: Double, p: [Int])] {
        (value as? [[String: Any]] ?? []).map { (t: $0["t"] as? Double ?? .nan, p: ($0["p"] as? [Double] ?? []).map { Int($0) }) }
    }

    /// The page's scheduler with bursts of known times (games_play.py's SCHEDULE_CHECK), so that the on-time
    /// path is checked on a machine of any load: the burst due 300 ms ahead vibrates whole within 50 ms of its
    /// time and never early, unless the page's main thread was itself held up (its 10 ms probe saw a gap),
    /// and then only as late as that gap allows, with what passed cut; the burst 200 ms past its time
    /// vibrates at once with what passed cut.
    func checkScheduler(_ game: String, _ result: [String: Any]) {
        guard let checked = result["scheduled"] as? [String: Any], let ahead = checked["ahead"] as? [String: Any],
              let past = checked["past"] as? [String: Any] else { Issue.record("\(game): no scheduler check"); return }

        let aheadAt = ahead["at"] as? Double ?? .nan
        let aheadPattern = (ahead["pattern"] as? [Double] ?? []).map { Int($0) }
        let stall = ahead["stall"] as? Double ?? .nan
        let aheadCalls = Self.vibrateCalls(ahead["calls"])
        #expect(aheadCalls.count == 1, "\(game): the burst due ahead vibrated \(aheadCalls.count) times")
        if let call = aheadCalls.first {
            let late = call.t - aheadAt
            let cut = Int((ahead["entry"] as? [String: Any])?["cut"] as? Double ?? -1)
            #expect(late >= -2, "\(game): the burst due ahead vibrated \(-late) ms early")
            #expect(late <= max(50, stall + 20), "\(game): the burst due ahead vibrated \(late) ms late; the page's main thread stalled at most \(stall) ms")
            #expect(call.p == (cut > 0 ? Self.trimmed(aheadPattern, by: cut) : aheadPattern), "\(game): the burst due ahead vibrated \(call.p), \(late) ms late, cut \(cut)")
            if cut > 0 { #expect(abs(Double(cut) - late) <= 2, "\(game): \(late) ms late, the page cut \(cut) ms") }
            print("\(game): the burst due ahead vibrated \(late) ms after its time (main thread's longest gap \(stall) ms)")
        }

        let pastAt = past["at"] as? Double ?? .nan
        let pastPattern = (past["pattern"] as? [Double] ?? []).map { Int($0) }
        let entry = past["entry"] as? [String: Any] ?? [:]
        let cut = Int(entry["cut"] as? Double ?? -1)
        let pastCalls = Self.vibrateCalls(past["calls"])
        #expect(pastCalls.count == 1, "\(game): the burst past its time vibrated \(pastCalls.count) times")
        if let call = pastCalls.first {
            #expect(cut >= 200 && abs(Double(cut) - (call.t - pastAt)) <= 2, "\(game): \(call.t - pastAt) ms past its time, the page cut \(cut) ms")
            #expect(call.p == Self.trimmed(pastPattern, by: cut) && !call.p.isEmpty, "\(game): the burst past its time vibrated \(call.p), cut \(cut)")
            #expect(call.t - (entry["received"] as? Double ?? .nan) < 5, "\(game): the burst past its time was not played at once")
        }
    }

    @Test("each game played by pointer events: hit and miss, swipe, hold; vibrate with the renderer's patterns on the audio clock; home after inactivity; screenshots",
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
                                                      "http://127.0.0.1:\(studio.port)/", StudioBrowserTests.screenshots.path, output.path], timeout: 120)
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

        // Vibe: the page shows what the model computes from the same frames; depth 0.1 + 0.9·0.7, and the rate
        // 1/(2Δt) from the crossing times the script measured itself (the server stamps arrivals, ms later).
        var model = FeelYourVibe()
        for frame in vibeLog { _ = model.handle(frame) }
        let frequency = results["vibe"]?["frequency"] as? Double ?? .nan
        let depth = results["vibe"]?["depth"] as? Double ?? .nan
        #expect(abs(frequency - model.frequency) < 1e-3, "page \(frequency) Hz, model \(model.frequency) Hz")
        #expect(abs(depth - model.depth) < 1e-3 && abs(depth - 0.73) < 0.01, "depth \(depth)")
        let scriptRate = results["vibe"]?["scriptRate"] as? Double ?? .nan
        #expect(abs(frequency - scriptRate) <= 0.15 * scriptRate, "rate \(frequency) Hz; 1/(2Δt) from the script's own crossing times: \(scriptRate) Hz")
        #expect(model.crossings.count >= 5)
        checkHaptics("vibe", vibeBursts, results["vibe"] ?? [:])
        checkScheduler("vibe", results["vibe"] ?? [:])

        // Touch: the hold's volume is 1 − y as the model computes; the home button after the 2 s timeout.
        var hold = TouchForMusic()
        for frame in touchLog { _ = hold.handle(frame) }
        let volume = results["touch"]?["volume"] as? Double ?? .nan
        #expect(abs(volume - hold.volume) < 1e-3 && abs(volume - 0.75) < 0.01, "volume \(volume), model \(hold.volume)")
        // Judged on the machine's time: seconds in which a task waited for a CPU are taken off (a build beside the
        // suite made a 2 s timeout show after 4.9 s of wall time).
        let homeAfter = results["touch"]?["homeAfter"] as? Double ?? .nan
        let stalled = results["touch"]?["stalledMeanwhile"] as? Double ?? 0
        #expect(homeAfter > 1.5 && homeAfter - min(stalled, 8) < 4, "home button after \(homeAfter) s (\(stalled) s of them waiting for a CPU)")
        checkHaptics("touch", touchBursts, results["touch"] ?? [:])
        checkScheduler("touch", results["touch"] ?? [:])
    }
}
