import LiveHost

/// A JACK client as the live host's audio backend: its status snapshot, read from the server.
extension JACKClient: LiveAudioBackend {
    /// Queries the server (ports, connections, latency, load) and the client's counters. Any
    /// thread, but it asks the server over its socket: a host polls it (``LiveSession`` keeps a
    /// snapshot), a page shows the snapshot. Once the server is gone, only the counters are read.
    public var audioStatus: AudioHostStatus {
        let statistics = self.statistics
        let gone = isServerGone
        var status = AudioHostStatus(
            backend: .jack, clientName: name, serverName: configuration.serverName, sampleRate: sampleRate,
            periodFrames: bufferSize, isRealtime: isRealtime, processingLatencyFrames: handlerProcessingLatency,
            isRunning: isActive && !gone, shutdownReason: serverShutdownReason)
        status.apply(statistics)
        guard !gone else {
            status.ports = [ports.leftOutput, ports.rightOutput, ports.midiOutput, ports.midiInput].enumerated().map {
                AudioHostPort(name: $1, kind: $0 < 2 ? .audio : .midi, isInput: $0 == 3, connections: [])
            }
            return status
        }
        status.cpuLoad = cpuLoad
        let latency = playbackLatency
        status.playbackLatencyMinimum = latency.lowerBound
        status.playbackLatencyMaximum = latency.upperBound
        status.ports = [ports.leftOutput, ports.rightOutput, ports.midiOutput, ports.midiInput].compactMap { name in
            portInfo(named: name).map(AudioHostPort.init)
        }
        return status
    }
}

extension AudioHostPort {
    /// The port as the live host's status shows it.
    public init(_ info: JACKPortInfo) {
        let kind: Kind
        switch info.type {
        case .audio: kind = .audio
        case .midi: kind = .midi
        case .other: kind = .other
        }
        self.init(name: info.name, kind: kind, isInput: info.isInput, connections: info.connections)
    }
}

extension AudioHostStatus {
    /// Takes the counters of a JACK client.
    public mutating func apply(_ statistics: JACKClientStatistics) {
        xruns = statistics.xruns
        periods = statistics.periods
        frames = statistics.frames
        longestCallbackNanoseconds = statistics.longestCallbackNanoseconds
        averageCallbackNanoseconds = statistics.averageCallbackNanoseconds
        midiOutputDropped = statistics.midiOutputDropped
        midiInputLost = statistics.midiInputLost
    }
}
