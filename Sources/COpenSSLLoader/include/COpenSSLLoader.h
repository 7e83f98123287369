// COpenSSLLoader: TLS for the studio's HTTPS port from the system's OpenSSL, loaded at run time.
//
// A build needs neither OpenSSL headers nor libssl (as CJACKLoader needs no libjack): pj_tls_load() resolves the
// few functions used with dlopen/dlsym from libssl.so.3 (or 1.1) and libcrypto, which every Debian system that
// has `openssl` already carries. Only `prospero studio --tls` calls it, so a studio without HTTPS never needs it.
//
// One connection is one SSL object between two memory BIOs: the event loop feeds the bytes it read from the
// socket in, takes the bytes to send out, and moves plaintext through pj_tls_read/pj_tls_write. No call blocks,
// and none touches a socket. A connection is used from one thread at a time (its event loop); a context is
// shared read-only by every connection.
#ifndef COPENSSLLOADER_H
#define COPENSSLLOADER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pj_tls_context pj_tls_context;
typedef struct pj_tls_connection pj_tls_connection;

/// Loads libssl and libcrypto once (later calls return the first answer). 0 on success; otherwise -1 and a
/// message naming what is missing in `error` (`capacity` bytes, NUL-terminated).
int pj_tls_load(char *error, size_t capacity);

/// A server context from a PEM certificate chain (leaf first) and its PEM private key, TLS 1.2 at least.
/// NULL on failure with OpenSSL's reason in `error`. Requires pj_tls_load().
pj_tls_context *pj_tls_context_new(const char *certificate_path, const char *key_path, char *error, size_t capacity);
void pj_tls_context_free(pj_tls_context *context);

/// A server-side connection in the accept state. NULL when OpenSSL is out of memory.
pj_tls_connection *pj_tls_connection_new(pj_tls_context *context);

/// A client context for tests and fuzzing (a peer that plays the browser's part against the server's handler): TLS
/// 1.2 at least, at most 1.2 when `maximum_tls12` is non-zero (1.3 otherwise), certificates not verified.
/// NULL when OpenSSL is not loaded or out of memory.
pj_tls_context *pj_tls_client_context_new(int maximum_tls12);
/// A client-side connection in the connect state (pj_tls_handshake drives it), offering TLS 1.2's AES-128-GCM suites
/// only. NULL when out of memory.
pj_tls_connection *pj_tls_client_connection_new(pj_tls_context *context);
/// Keeps the client's TLS 1.2 AES-128-GCM keys of now (call when its handshake is done) for pj_tls_client_seal.
/// PJ_TLS_OK, or PJ_TLS_FAILED (TLS 1.3, no session).
int pj_tls_client_keep_keys(pj_tls_connection *connection);
/// A record the client's OpenSSL will not write itself, protected as it would be: `count` (≤ 16 384) bytes of
/// `plaintext` as content type `type`, sealed with the kept write key at record number `sequence` (counted from the
/// client's Finished, 0). Into `out` (`capacity` ≥ count + 29): the record's length, or PJ_TLS_FAILED (no keys kept).
/// For tests and fuzzing: an alert after a renegotiation's ClientHello, say.
long pj_tls_client_seal(pj_tls_connection *connection, uint8_t type, const uint8_t *plaintext, size_t count, uint64_t sequence,
                        uint8_t *out, size_t capacity);
void pj_tls_connection_free(pj_tls_connection *connection);

/// Results of the calls below.
enum {
    PJ_TLS_OK = 1,          ///< done (the handshake finished; bytes were read or written)
    PJ_TLS_WANT_MORE = 0,   ///< needs more bytes from the peer first
    PJ_TLS_CLOSED = -1,     ///< the peer sent close_notify
    PJ_TLS_FAILED = -2,     ///< a protocol error: the connection is over (pj_tls_last_error says why)
};

/// Hands `count` bytes read from the socket to the connection. Returns the count taken (all of them).
long pj_tls_feed(pj_tls_connection *connection, const uint8_t *bytes, size_t count);
/// Advances the handshake: PJ_TLS_OK once it is done, PJ_TLS_WANT_MORE, or PJ_TLS_FAILED.
int pj_tls_handshake(pj_tls_connection *connection);
/// Decrypts up to `capacity` bytes into `out`: the count (> 0), or PJ_TLS_WANT_MORE, PJ_TLS_CLOSED, PJ_TLS_FAILED.
long pj_tls_read(pj_tls_connection *connection, uint8_t *out, size_t capacity);
/// Encrypts `count` bytes (count > 0): the count, or PJ_TLS_FAILED.
long pj_tls_write(pj_tls_connection *connection, const uint8_t *bytes, size_t count);
/// A client's TLS 1.2 renegotiation: queues a new ClientHello. PJ_TLS_OK, PJ_TLS_WANT_MORE (the usual answer: the
/// server must reply), or PJ_TLS_FAILED (TLS 1.3 has no renegotiation).
int pj_tls_renegotiate(pj_tls_connection *connection);
/// A TLS 1.3 KeyUpdate that asks the peer to update its keys too (so that reading it makes the peer write).
/// PJ_TLS_OK, or PJ_TLS_FAILED (TLS 1.2 has none).
int pj_tls_key_update(pj_tls_connection *connection);
/// Queues close_notify.
void pj_tls_shutdown(pj_tls_connection *connection);
/// Bytes waiting to go to the socket.
size_t pj_tls_pending_output(pj_tls_connection *connection);
/// Moves up to `capacity` waiting bytes into `out`; the count moved.
long pj_tls_take_output(pj_tls_connection *connection, uint8_t *out, size_t capacity);
/// OpenSSL's reason for the connection's last PJ_TLS_FAILED, into `error`.
void pj_tls_last_error(pj_tls_connection *connection, char *error, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
