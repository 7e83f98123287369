import InstrumentSettings

/// Everything a ``StudioSession`` keeps under its one lock: the clients and their replay, the instruments
/// (``StudioStage``), MIDI learn, the counters and what `welcome` and `status` tell pages.
///
/// Why one lock for all of it, when the parts have separate jobs:
/// - A change is applied to an instrument and broadcast as `changed` in one step, so that every client
///   sees the changes in the order the instrument took them (two pages setting the same control at once
///   must agree on the last value).
/// - A client's `hello` gets the state and joins the broadcast in one step: no change falls between the
///   `state` it is sent and the first `changed` it receives, and a retained client's replay is complete.
/// - Selecting the active instrument and dispatching a control to it are one step each: a control
///   never reaches an instrument that was switched off in between (it is refused with `not_active`).
/// - Instruments are not thread-safe: every call into one (controls, touches, live input, `advance`,
///   frames, MIDI-learned moves) is made here, one at a time.
/// - The learn state travels inside each instrument's `state` and its `changed`, so it changes in the
///   same steps.
/// What does not need it stays outside: parsing a message, and binary frames (meters, PCM), which go
/// through the ``StudioFanOut`` that ``clients`` keeps current.
struct StudioSessionState {
    /// Connections, client ids, subscriptions, rate limits, touches held down, replay of missed `state`.
    var clients: StudioClientRegistry
    /// The instruments and which one is active.
    var stage: StudioStage
    /// The armed control and the learned controllers.
    var learn = StudioLearnDesk()
    var statistics = StudioSessionStatistics()
    var audio = StudioAudioStatus(backend: .none)
    var sources: [StudioInputSource] = []
    /// What `welcome` tells pages about this studio (`osc`, `urls`).
    var info: [String: StudioValue] = [:]
    /// The last `status` sent (a new one goes out only when it differs; a client that joins gets it).
    var lastStatus: String?
    /// Told each time an instrument's state or the learned controllers changed (the settings saver waits on it).
    let changed: AsyncStream<Void>.Continuation

    /// To every subscribed client (retained ones keep `state` messages for replay); a state change is announced on ``changed``.
    mutating func broadcast(_ message: StudioServerMessage) {
        clients.broadcast(message)
        if message.subscription == .state { changed.yield() }
    }

    /// `changes` of instrument `id` as one `changed` to every client, nothing when empty.
    mutating func broadcast(changes: [String: StudioValue], of id: String) {
        if !changes.isEmpty { broadcast(.changed(instrument: id, changes: changes)) }
    }

    /// To the socket `connection` alone (answers and errors; nothing kept for a replay).
    func reply(_ message: StudioServerMessage, to connection: Int) {
        clients.send(.text(message.text), to: connection)
    }

    /// The `state` message of instrument `index`: its own state with its MIDI learn state (`learn`).
    func stateMessage(of index: Int) -> StudioServerMessage {
        let instrument = stage.instruments[index]
        var state = instrument.stateJSON()
        state["learn"] = learn.json(instrument: instrument.id)
        return .state(instrument: instrument.id, state: state)
    }
}
