import Enobarbus
import InstrumentSettings

/// What reaches the instruments, and what they change going out to every client: the pages' messages
/// after `hello` (`select`, `set`, `action`, `touch`, `audio` reports; `ping` and `clock` are answered
/// here too), a control the studio sets itself, the shared live input, and what instruments change as
/// time passes. A change an instrument accepts is broadcast as `changed` to every client subscribed to
/// `state`, the sender too (that is its acknowledgement); a refusal is answered to the sender alone.
/// Every call runs under the session's lock (``StudioSessionState`` says why); it keeps no state of its own.
struct StudioDispatch {
    /// The audio driver: told which instrument renders and when input arrives, hears the pages' reports.
    let audio: (any StudioAudioOutput)?

    /// A parsed message other than `hello` from `connection` at `now` (monotonic seconds). Errors are
    /// counted as refused and answered with `error`, never thrown.
    func dispatch(_ message: StudioClientMessage, from connection: Int, now: Double, in s: inout StudioSessionState) {
        switch message {
        case .ping(let t):
            s.reply(.pong(t: t, server: (now * 1000).rounded()), to: connection)
            return
        case .clock(let t):
            s.reply(.clock(t: t, audio: s.stage.audioTime(now: now), server: (now * 1000).rounded()), to: connection)
            return
        default: break
        }
        guard let id = s.clients.client(on: connection) else {
            s.reply(.error(StudioError(code: "not_ready", message: "send hello first", ref: message.type)), to: connection)
            return
        }
        do throws(StudioError) {
            switch message {
            case .hello, .ping, .clock: break
            case .audio(let report):
                audio?.report(report, client: id, at: now)
            case .select(let instrument):
                try select(instrument, now: now, in: &s)
            case .set(let path, let value):
                let (instrument, changes) = try s.stage.apply(path, value: value, action: false, client: id)
                s.broadcast(changes: changes, of: instrument)
            case .action(let path, let value):
                // The learn actions (`<id>.learn`...) are the session's, on every instrument; the rest are the instrument's own.
                if let learned = try s.learn.action(path, value: value, on: s.stage) {
                    s.broadcast(learned)
                    break
                }
                let (instrument, changes) = try s.stage.apply(path, value: value, action: true, client: id)
                s.broadcast(changes: changes, of: instrument)
            case .touch(let touch):
                s.clients.touch(touch.id, down: !touch.ends, client: id)
                let (instrument, changes) = try s.stage.touch(touch, client: id, now: now)
                s.broadcast(changes: changes, of: instrument)
            }
        } catch {
            s.statistics.refused += 1
            s.reply(.error(error), to: connection)
        }
    }

    /// Makes `instrument` the active one (the old one falls silent, the touches held on it are forgotten, the
    /// audio driver renders the new one) and sends its whole state to every client, even when it was active already.
    private func select(_ instrument: String, now: Double, in s: inout StudioSessionState) throws(StudioError) {
        if s.stage.active != s.stage.index(of: instrument), s.stage.index(of: instrument) != nil { s.clients.forgetTouches() }
        let (index, changed) = try s.stage.select(instrument, now: now)
        if changed { audio?.select(index) }
        s.broadcast(s.stateMessage(of: index))
    }

    /// A control set by the studio itself, through its instrument's `set` (active or not), validated as a
    /// page's. The changes (empty when nothing changed), nil when refused or no instrument owns `path`.
    func set(_ path: String, to value: StudioValue, in s: inout StudioSessionState) -> [String: StudioValue]? {
        guard let index = s.stage.index(owning: path),
              let changes = try? s.stage.instruments[index].apply(set: path, value: value) else { return nil }
        s.broadcast(changes: changes, of: s.stage.instruments[index].id)
        return changes
    }

    /// The active instrument's HUD frame at `now` to `frames` subscribers, and what it changed on its own.
    func sendFrame(now: Double, in s: inout StudioSessionState) {
        guard let a = s.stage.active else { return }
        let instrument = s.stage.instruments[a]
        if let frame = instrument.frameJSON(now: now) {
            s.broadcast(.frame(instrument: instrument.id, frame: frame))
        }
        broadcastOwnChanges(of: a, in: &s)
    }

    /// The active instrument advanced to `time` (seconds), and what it changed as time passed.
    func advance(to time: Double, in s: inout StudioSessionState) {
        guard let a = s.stage.active else { return }
        s.stage.instruments[a].advance(to: time)
        broadcastOwnChanges(of: a, in: &s)
    }

    /// Tracking frames from the shared inputs, for the active instrument.
    func receive(_ frames: [TrackingFrame], at time: Double, in s: inout StudioSessionState) {
        guard let a = s.stage.active else { return }
        audio?.inputArrived(at: time)
        s.stage.instruments[a].receive(frames, at: time)
    }

    /// Wekinator's outputs, for the active instrument.
    func receiveControls(_ outputs: [Float], at time: Double, in s: inout StudioSessionState) {
        guard let a = s.stage.active else { return }
        audio?.inputArrived(at: time)
        s.stage.instruments[a].receiveControls(outputs, at: time)
    }

    /// The studio stops at `time`: every client's touches are forgotten and the active instrument ends every note.
    func finish(at time: Double, in s: inout StudioSessionState) {
        s.clients.forgetTouches()
        s.stage.silence(at: time)
    }

    private func broadcastOwnChanges(of index: Int, in s: inout StudioSessionState) {
        let instrument = s.stage.instruments[index]
        for changes in instrument.takeChanges() {
            s.broadcast(changes: changes, of: instrument.id)
        }
    }
}
