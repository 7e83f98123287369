import COpenSSLLoader

/// A TLS client on memory, from the same OpenSSL as the server: the peer that plays a browser's part (or an
/// attacker's) against ``StudioTLSHarness`` in tests and in the `tlsConnection` fuzz target. It never touches a
/// socket; bytes go in with ``feed(_:)`` and come out with ``takeOutput()``. Certificates are not verified.
public final class StudioTLSTestClient {
    private let context: OpaquePointer
    private let connection: OpaquePointer
    /// The number of the client's next protected record (from its ChangeCipherSpec on), for ``seal(type:_:)``.
    private var nextRecord: UInt64?

    /// - Parameter maximumTLS12: at most TLS 1.2 (which has renegotiation), else TLS 1.3 when the server takes it.
    public init(maximumTLS12: Bool) throws(StudioTLSError) {
        var message = [CChar](repeating: 0, count: 512)
        guard pj_tls_load(&message, message.count) == 0 else { throw StudioTLSError(description: StudioTLSContext.text(message)) }
        guard let context = pj_tls_client_context_new(maximumTLS12 ? 1 : 0) else {
            throw StudioTLSError(description: "OpenSSL could not make a client context")
        }
        guard let connection = pj_tls_client_connection_new(context) else {
            pj_tls_context_free(context)
            throw StudioTLSError(description: "OpenSSL could not make a client connection")
        }
        self.context = context
        self.connection = connection
    }

    deinit {
        pj_tls_connection_free(connection)
        pj_tls_context_free(context)
    }

    /// What one step of the client's handshake says: done, waiting for the server, or failed.
    public enum Progress: Equatable, Sendable { case done, wantMore, failed }

    /// Advances the handshake (the first call makes the ClientHello).
    @discardableResult
    public func handshake() -> Progress {
        let progress = Self.progress(pj_tls_handshake(connection))
        // The keys in use from now on, for seal(type:_:) (a later renegotiation replaces what they came from).
        if progress == .done && !keptKeys { keptKeys = pj_tls_client_keep_keys(connection) == Int32(PJ_TLS_OK) }
        return progress
    }
    private var keptKeys = false

    /// Queues a TLS 1.2 renegotiation's ClientHello (encrypted, after a finished handshake).
    @discardableResult
    public func renegotiate() -> Progress { Self.progress(pj_tls_renegotiate(connection)) }

    /// Queues a TLS 1.3 KeyUpdate asking the server for one back (reading it makes the server write).
    @discardableResult
    public func keyUpdate() -> Progress { Self.progress(pj_tls_key_update(connection)) }

    /// Encrypts `bytes` (application data); false when the connection cannot.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return true }
        return bytes.withUnsafeBufferPointer { pj_tls_write(connection, $0.baseAddress!, $0.count) } >= 0
    }

    /// Queues close_notify.
    public func shutdown() { pj_tls_shutdown(connection) }

    /// close_notify as a sealed record (``seal(type:_:)``): for the moments OpenSSL refuses to send one itself, as in
    /// the middle of a renegotiation.
    public func sealedCloseNotify() -> [UInt8] { seal(type: 21, [1, 0]) }

    /// Bytes from the server.
    public func feed(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        _ = bytes.withUnsafeBufferPointer { pj_tls_feed(connection, $0.baseAddress!, $0.count) }
    }

    /// Plaintext decrypted from what was fed (up to `limit` bytes); empty when there is none.
    public func read(limit: Int = 1 << 16) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: limit)
        let n = out.withUnsafeMutableBufferPointer { pj_tls_read(connection, $0.baseAddress!, $0.count) }
        return n > 0 ? Array(out.prefix(n)) : []
    }

    /// The records waiting to go to the server.
    public func takeOutput() -> [UInt8] {
        let pending = pj_tls_pending_output(connection)
        guard pending > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: pending)
        let n = out.withUnsafeMutableBufferPointer { pj_tls_take_output(connection, $0.baseAddress!, $0.count) }
        let records = Array(out.prefix(n))
        count(records)
        return records
    }

    /// A record OpenSSL would not write now (an alert in the middle of a renegotiation, a handshake message out of
    /// place), protected with the client's current TLS 1.2 keys as the next record: what a hostile client can send.
    /// Empty before the client's ChangeCipherSpec, under TLS 1.3, or past 16 KiB. The client's own later records are
    /// then out of step (the server refuses them), as after any forged record.
    public func seal(type: UInt8, _ plaintext: [UInt8]) -> [UInt8] {
        guard let sequence = nextRecord, plaintext.count <= 16_384 else { return [] }
        var out = [UInt8](repeating: 0, count: plaintext.count + 29)
        let n = plaintext.withUnsafeBufferPointer { text in
            out.withUnsafeMutableBufferPointer { pj_tls_client_seal(connection, type, text.baseAddress, text.count, sequence, $0.baseAddress!, $0.count) }
        }
        guard n > 0 else { return [] }
        nextRecord = sequence + 1
        return Array(out.prefix(n))
    }

    /// Counts the protected records in what the client wrote: numbering starts after its ChangeCipherSpec (type 20).
    private func count(_ records: [UInt8]) {
        var at = 0
        while at + 5 <= records.count {
            let type = records[at], length = Int(records[at + 3]) << 8 | Int(records[at + 4])
            if type == 20 { nextRecord = 0 } else if let n = nextRecord { nextRecord = n + 1 }
            at += 5 + length
        }
    }

    private static func progress(_ result: Int32) -> Progress {
        switch result {
        case Int32(PJ_TLS_OK): .done
        case Int32(PJ_TLS_WANT_MORE): .wantMore
        default: .failed
        }
    }
}
