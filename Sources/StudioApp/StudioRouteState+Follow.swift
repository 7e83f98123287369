import Hecate
import LiveHost
import LiveHostPOSIX
import Studio

extension StudioRouteState {
    /// A new output route (JACK's connections changed): Hecate's route follows while it is the detected one
    /// (a route chosen on the page stays), which moves its limiter ceiling through its own control; the pages
    /// see the `changed` route now and the audio status's route with the next status push. On the live
    /// host's thread (the follower posts it there).
    func follow(_ detected: OutputRouteDetection, session: StudioSession) {
        let hecate = session.withInstrument("hecate") { $0.stateJSON() }
        let current = hecate?["route"]?.string.flatMap(OutputRoute.init(rawValue:))
        var line = "studio: output route now: \(detected.summary)"
        if let automatic, let current, current == automatic {
            follow(detected.route)
            session.set("hecate.route", to: .string(detected.route.rawValue))
            let playAlong = hecate?["playAlong"]?.bool ?? false
            line += "; hecate limiter \(Int(detected.route.limiterCeiling(playAlong: playAlong))) dBFS"
        } else if let current {
            line += "; hecate keeps its chosen route (\(current.rawValue))"
        }
        StandardOutput.line(line)
    }
}
