import COpenSSLLoader

/// A TLS client on memory, from the same OpenSSL as the server: the peer that plays a browser's part (or an
/// attacker's) against ``StudioTLSHarness`` in tests and in the `tlsConnection` fuzz target. It never touches a
/// socket; bytes go in with ``feed(_:)`` and come out with ``takeOutput()``. Certificates are not verified.
public final class StudioTLSTestClient {
    private let context: OpaquePointer
    private let connection: OpaquePointer

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
    public func handshake() -> Progress { Self.progress(pj_tls_handshake(connection)) }

    /// Queues a TLS 1.2 renegotiation's ClientHello (encrypted, after a finished handshake).
    @discardableResult
    public func renegotiate() -> Progress { Self.progress(pj_tls_renegotiate(connection)) }

    /// Encrypts `bytes` (application data); false when the connection cannot.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return true }
        return bytes.withUnsafeBufferPointer { pj_tls_write(connection, $0.baseAddress!, $0.count) } >= 0
    }

    /// Queues close_notify.
    public func shutdown() { pj_tls_shutdown(connection) }

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
        return Array(out.prefix(n))
    }

    private static func progress(_ result: Int32) -> Progress {
        switch result {
        case Int32(PJ_TLS_OK): .done
        case Int32(PJ_TLS_WANT_MORE): .wantMore
        default: .failed
        }
    }
}
