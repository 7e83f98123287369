import COpenSSLLoader

/// Why HTTPS cannot start: OpenSSL is missing, or it refused the certificate or key (its own reason).
public struct StudioTLSError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// The HTTPS port's certificate chain and private key, loaded once into an OpenSSL server context that every
/// connection shares. OpenSSL comes from the system at run time (`libssl.so.3`), so building the studio compiles no
/// TLS library and a studio without `--tls` never loads one.
final class StudioTLSContext: @unchecked Sendable {
    // Sendable: the context is only read after `init` (OpenSSL locks its own session cache).
    let pointer: OpaquePointer

    /// Loads OpenSSL and reads `certificate` (PEM, leaf first) and `key` (PEM); throws OpenSSL's reason.
    init(certificate: String, key: String) throws(StudioTLSError) {
        var message = [CChar](repeating: 0, count: 1024)
        guard pj_tls_load(&message, message.count) == 0 else {
            throw StudioTLSError(description: Self.text(message))
        }
        guard let context = pj_tls_context_new(certificate, key, &message, message.count) else {
            throw StudioTLSError(description: "--tls '\(certificate)' '\(key)': \(Self.text(message))")
        }
        pointer = context
    }

    deinit { pj_tls_context_free(pointer) }

    static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
