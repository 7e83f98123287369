// Resolves the part of OpenSSL the studio's HTTPS uses from libssl and libcrypto at run time (see
// COpenSSLLoader.h). The constants below restate OpenSSL's public ABI, unchanged from 1.1.0 to 3.x.
#define _GNU_SOURCE
#include "COpenSSLLoader.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ssl_st SSL;
typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_method_st SSL_METHOD;
typedef struct bio_st BIO;
typedef struct bio_method_st BIO_METHOD;
typedef struct ssl_session_st SSL_SESSION;
typedef struct evp_md_st EVP_MD;
typedef struct evp_cipher_st EVP_CIPHER;
typedef struct evp_cipher_ctx_st EVP_CIPHER_CTX;
typedef struct engine_st ENGINE;

enum {
    SSL_FILETYPE_PEM = 1,
    SSL_CTRL_MODE = 33,
    SSL_CTRL_SET_MIN_PROTO_VERSION = 123,
    SSL_CTRL_SET_MAX_PROTO_VERSION = 124,
    TLS1_2_VERSION = 0x0303,
    SSL_MODE_RELEASE_BUFFERS = 0x10,
    SSL_ERROR_WANT_READ = 2,
    SSL_ERROR_WANT_WRITE = 3,
    SSL_ERROR_ZERO_RETURN = 6,
    BIO_CTRL_PENDING = 10,
};
// Client-initiated renegotiation costs the server a handshake per request: refused (TLS 1.3 has none anyway).
static const uint64_t SSL_OP_NO_RENEGOTIATION = 0x40000000UL;
static const uint64_t SSL_OP_CIPHER_SERVER_PREFERENCE = 0x00400000UL;
// TLS 1.2's suites: forward-secret key exchange (ECDHE) with AEAD ciphers only (Mozilla's "intermediate" list). TLS 1.3's
// suites are all of that kind already and are left at OpenSSL's defaults.
static const char *const tls12_ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

static struct {
    const SSL_METHOD *(*server_method)(void);
    const SSL_METHOD *(*client_method)(void);
    int (*ctx_set_cipher_list)(SSL_CTX *, const char *);
    void (*set_connect_state)(SSL *);
    int (*renegotiate)(SSL *);
    int (*key_update)(SSL *, int);
    // A test client's forged records (pj_tls_client_seal): the session's keys, TLS 1.2's PRF and AES-128-GCM.
    SSL_SESSION *(*get_session)(const SSL *);
    size_t (*session_master_key)(const SSL_SESSION *, unsigned char *, size_t);
    size_t (*client_random)(const SSL *, unsigned char *, size_t);
    size_t (*server_random)(const SSL *, unsigned char *, size_t);
    int (*ssl_set_cipher_list)(SSL *, const char *);
    const EVP_MD *(*sha256)(void);
    unsigned char *(*hmac)(const EVP_MD *, const void *, int, const unsigned char *, size_t, unsigned char *, unsigned int *);
    const EVP_CIPHER *(*aes_128_gcm)(void);
    EVP_CIPHER_CTX *(*cipher_ctx_new)(void);
    void (*cipher_ctx_free)(EVP_CIPHER_CTX *);
    int (*encrypt_init)(EVP_CIPHER_CTX *, const EVP_CIPHER *, ENGINE *, const unsigned char *, const unsigned char *);
    int (*cipher_ctrl)(EVP_CIPHER_CTX *, int, int, void *);
    int (*encrypt_update)(EVP_CIPHER_CTX *, unsigned char *, int *, const unsigned char *, int);
    int (*encrypt_final)(EVP_CIPHER_CTX *, unsigned char *, int *);
    SSL_CTX *(*ctx_new)(const SSL_METHOD *);
    void (*ctx_free)(SSL_CTX *);
    int (*ctx_use_chain_file)(SSL_CTX *, const char *);
    int (*ctx_use_key_file)(SSL_CTX *, const char *, int);
    int (*ctx_check_key)(const SSL_CTX *);
    long (*ctx_ctrl)(SSL_CTX *, int, long, void *);
    uint64_t (*ctx_set_options)(SSL_CTX *, uint64_t);
    SSL *(*ssl_new)(SSL_CTX *);
    void (*ssl_free)(SSL *);
    void (*set_bio)(SSL *, BIO *, BIO *);
    void (*set_accept_state)(SSL *);
    int (*do_handshake)(SSL *);
    int (*ssl_read)(SSL *, void *, int);
    int (*ssl_write)(SSL *, const void *, int);
    int (*get_error)(const SSL *, int);
    int (*ssl_shutdown)(SSL *);
    BIO *(*bio_new)(const BIO_METHOD *);
    const BIO_METHOD *(*bio_s_mem)(void);
    int (*bio_free)(BIO *);
    int (*bio_write)(BIO *, const void *, int);
    int (*bio_read)(BIO *, void *, int);
    long (*bio_ctrl)(BIO *, int, long, void *);
    unsigned long (*err_get)(void);
    void (*err_string)(unsigned long, char *, size_t);
    void (*err_clear)(void);
} api;

struct pj_tls_context { SSL_CTX *ctx; };

struct pj_tls_connection {
    SSL *ssl;
    BIO *in;   // bytes from the peer (the SSL's read BIO)
    BIO *out;  // bytes for the peer (the SSL's write BIO)
    char error[256];
    // A test client's TLS 1.2 key block as it was when pj_tls_client_keep_keys ran (a renegotiation's ClientHello
    // replaces the randoms and the session the keys came from, not the keys in use).
    unsigned char seal_keys[40];
    int seal_ready;
};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char load_error[512];

#define RESOLVE(handle, field, name)                                                                   \
    do {                                                                                              \
        *(void **)(&api.field) = dlsym(handle, name);                                                 \
        if (!api.field) {                                                                             \
            snprintf(load_error, sizeof load_error, "OpenSSL has no %s (%s)", name, dlerror());        \
            return;                                                                                   \
        }                                                                                             \
    } while (0)

static void load_once(void) {
    // Same major version for both libraries: libssl links exactly one libcrypto.
    static const char *pairs[][2] = {
        {"libssl.so.3", "libcrypto.so.3"}, {"libssl.so.1.1", "libcrypto.so.1.1"}, {"libssl.so", "libcrypto.so"}};
    void *ssl = NULL, *crypto = NULL;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0] && !ssl; i++) {
        ssl = dlopen(pairs[i][0], RTLD_NOW | RTLD_LOCAL);
        if (ssl) {
            crypto = dlopen(pairs[i][1], RTLD_NOW | RTLD_LOCAL);
            if (!crypto) { dlclose(ssl); ssl = NULL; }
        }
    }
    if (!ssl) {
        snprintf(load_error, sizeof load_error,
                 "HTTPS needs OpenSSL's libssl.so.3 and libcrypto.so.3 (Debian: apt-get install libssl3)");
        return;
    }
    RESOLVE(ssl, server_method, "TLS_server_method");
    RESOLVE(ssl, client_method, "TLS_client_method");
    RESOLVE(ssl, ctx_set_cipher_list, "SSL_CTX_set_cipher_list");
    RESOLVE(ssl, set_connect_state, "SSL_set_connect_state");
    RESOLVE(ssl, renegotiate, "SSL_renegotiate");
    RESOLVE(ssl, key_update, "SSL_key_update");
    RESOLVE(ssl, get_session, "SSL_get_session");
    RESOLVE(ssl, session_master_key, "SSL_SESSION_get_master_key");
    RESOLVE(ssl, client_random, "SSL_get_client_random");
    RESOLVE(ssl, server_random, "SSL_get_server_random");
    RESOLVE(ssl, ssl_set_cipher_list, "SSL_set_cipher_list");
    RESOLVE(crypto, sha256, "EVP_sha256");
    RESOLVE(crypto, hmac, "HMAC");
    RESOLVE(crypto, aes_128_gcm, "EVP_aes_128_gcm");
    RESOLVE(crypto, cipher_ctx_new, "EVP_CIPHER_CTX_new");
    RESOLVE(crypto, cipher_ctx_free, "EVP_CIPHER_CTX_free");
    RESOLVE(crypto, encrypt_init, "EVP_EncryptInit_ex");
    RESOLVE(crypto, cipher_ctrl, "EVP_CIPHER_CTX_ctrl");
    RESOLVE(crypto, encrypt_update, "EVP_EncryptUpdate");
    RESOLVE(crypto, encrypt_final, "EVP_EncryptFinal_ex");
    RESOLVE(ssl, ctx_new, "SSL_CTX_new");
    RESOLVE(ssl, ctx_free, "SSL_CTX_free");
    RESOLVE(ssl, ctx_use_chain_file, "SSL_CTX_use_certificate_chain_file");
    RESOLVE(ssl, ctx_use_key_file, "SSL_CTX_use_PrivateKey_file");
    RESOLVE(ssl, ctx_check_key, "SSL_CTX_check_private_key");
    RESOLVE(ssl, ctx_ctrl, "SSL_CTX_ctrl");
    RESOLVE(ssl, ctx_set_options, "SSL_CTX_set_options");
    RESOLVE(ssl, ssl_new, "SSL_new");
    RESOLVE(ssl, ssl_free, "SSL_free");
    RESOLVE(ssl, set_bio, "SSL_set_bio");
    RESOLVE(ssl, set_accept_state, "SSL_set_accept_state");
    RESOLVE(ssl, do_handshake, "SSL_do_handshake");
    RESOLVE(ssl, ssl_read, "SSL_read");
    RESOLVE(ssl, ssl_write, "SSL_write");
    RESOLVE(ssl, get_error, "SSL_get_error");
    RESOLVE(ssl, ssl_shutdown, "SSL_shutdown");
    RESOLVE(crypto, bio_new, "BIO_new");
    RESOLVE(crypto, bio_s_mem, "BIO_s_mem");
    RESOLVE(crypto, bio_free, "BIO_free");
    RESOLVE(crypto, bio_write, "BIO_write");
    RESOLVE(crypto, bio_read, "BIO_read");
    RESOLVE(crypto, bio_ctrl, "BIO_ctrl");
    RESOLVE(crypto, err_get, "ERR_get_error");
    RESOLVE(crypto, err_string, "ERR_error_string_n");
    RESOLVE(crypto, err_clear, "ERR_clear_error");
    loaded = 0;
}

int pj_tls_load(char *error, size_t capacity) {
    pthread_once(&once, load_once);
    if (loaded != 0 && error && capacity) snprintf(error, capacity, "%s", load_error);
    return loaded;
}

/// OpenSSL's queued reasons (the newest last, as `openssl` prints them), or `fallback` when the queue is empty.
static void take_errors(char *error, size_t capacity, const char *fallback) {
    if (!error || !capacity) { api.err_clear(); return; }
    error[0] = 0;
    size_t used = 0;
    unsigned long code;
    while ((code = api.err_get()) != 0) {
        char line[200];
        api.err_string(code, line, sizeof line);
        int n = snprintf(error + used, capacity - used, "%s%s", used ? "; " : "", line);
        if (n < 0 || (size_t)n >= capacity - used) { used = capacity - 1; break; }
        used += (size_t)n;
    }
    if (used == 0) snprintf(error, capacity, "%s", fallback);
}

pj_tls_context *pj_tls_context_new(const char *certificate_path, const char *key_path, char *error, size_t capacity) {
    if (loaded != 0) { if (error && capacity) snprintf(error, capacity, "%s", load_error); return NULL; }
    api.err_clear();
    SSL_CTX *ctx = api.ctx_new(api.server_method());
    if (!ctx) { take_errors(error, capacity, "cannot make a TLS context"); return NULL; }
    if (api.ctx_use_chain_file(ctx, certificate_path) != 1) {
        take_errors(error, capacity, "cannot read the certificate chain");
        api.ctx_free(ctx);
        return NULL;
    }
    if (api.ctx_use_key_file(ctx, key_path, SSL_FILETYPE_PEM) != 1) {
        take_errors(error, capacity, "cannot read the private key");
        api.ctx_free(ctx);
        return NULL;
    }
    if (api.ctx_check_key(ctx) != 1) {
        take_errors(error, capacity, "the private key does not match the certificate");
        api.ctx_free(ctx);
        return NULL;
    }
    api.ctx_ctrl(ctx, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL);
    if (api.ctx_set_cipher_list(ctx, tls12_ciphers) != 1) {
        take_errors(error, capacity, "OpenSSL has none of the forward-secret AEAD suites");
        api.ctx_free(ctx);
        return NULL;
    }
    // An idle connection (a page that only listens now and then) gives its 34 KB of record buffers back.
    api.ctx_ctrl(ctx, SSL_CTRL_MODE, SSL_MODE_RELEASE_BUFFERS, NULL);
    api.ctx_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    pj_tls_context *context = calloc(1, sizeof *context);
    if (!context) { api.ctx_free(ctx); if (error && capacity) snprintf(error, capacity, "out of memory"); return NULL; }
    context->ctx = ctx;
    return context;
}

void pj_tls_context_free(pj_tls_context *context) {
    if (!context) return;
    api.ctx_free(context->ctx);
    free(context);
}

pj_tls_context *pj_tls_client_context_new(int maximum_tls12) {
    if (loaded != 0) return NULL;
    SSL_CTX *ctx = api.ctx_new(api.client_method());
    if (!ctx) { api.err_clear(); return NULL; }
    // Like a browser: TLS 1.2 at least; certificates are not verified (the tests' server is the point, not its name).
    api.ctx_ctrl(ctx, SSL_CTRL_SET_MIN_PROTO_VERSION, TLS1_2_VERSION, NULL);
    if (maximum_tls12) api.ctx_ctrl(ctx, SSL_CTRL_SET_MAX_PROTO_VERSION, TLS1_2_VERSION, NULL);
    pj_tls_context *context = calloc(1, sizeof *context);
    if (!context) { api.ctx_free(ctx); return NULL; }
    context->ctx = ctx;
    return context;
}

static pj_tls_connection *connection_new(pj_tls_context *context, int client);
static int outcome(pj_tls_connection *c, int r);

pj_tls_connection *pj_tls_connection_new(pj_tls_context *context) { return connection_new(context, 0); }

pj_tls_connection *pj_tls_client_connection_new(pj_tls_context *context) {
    pj_tls_connection *c = connection_new(context, 1);
    // TLS 1.2 with AES-128-GCM only, so that pj_tls_client_seal knows the record protection without asking.
    if (c && api.ssl_set_cipher_list(c->ssl, "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256") != 1) {
        pj_tls_connection_free(c);
        api.err_clear();
        return NULL;
    }
    return c;
}

/// TLS 1.2's PRF with SHA-256 (RFC 5246 §5): `count` bytes of P_SHA256(secret, label + seed).
static int prf_sha256(const unsigned char *secret, size_t secret_length, const char *label, const unsigned char *seed,
                      size_t seed_length, unsigned char *out, size_t count) {
    unsigned char label_seed[128], a[32 + 128], block[32];
    size_t label_length = strlen(label);
    if (label_length + seed_length > sizeof label_seed) return 0;
    memcpy(label_seed, label, label_length);
    memcpy(label_seed + label_length, seed, seed_length);
    size_t ls = label_length + seed_length;
    unsigned int n = 0;
    // A(1) = HMAC(secret, label + seed); each block is HMAC(secret, A(i) + label + seed).
    if (!api.hmac(api.sha256(), secret, (int)secret_length, label_seed, ls, a, &n)) return 0;
    for (size_t done = 0; done < count;) {
        memcpy(a + 32, label_seed, ls);
        if (!api.hmac(api.sha256(), secret, (int)secret_length, a, 32 + ls, block, &n)) return 0;
        size_t take = count - done < 32 ? count - done : 32;
        memcpy(out + done, block, take);
        done += take;
        if (!api.hmac(api.sha256(), secret, (int)secret_length, a, 32, a, &n)) return 0;
    }
    return 1;
}

int pj_tls_client_keep_keys(pj_tls_connection *c) {
    SSL_SESSION *session = api.get_session(c->ssl);
    if (!session) return PJ_TLS_FAILED;
    unsigned char master[48], seed[64];
    if (api.session_master_key(session, master, sizeof master) != sizeof master) return PJ_TLS_FAILED;
    // key_block's seed is server_random + client_random; it holds client key, server key, client IV, server IV.
    if (api.server_random(c->ssl, seed, 32) != 32 || api.client_random(c->ssl, seed + 32, 32) != 32) return PJ_TLS_FAILED;
    if (!prf_sha256(master, sizeof master, "key expansion", seed, sizeof seed, c->seal_keys, sizeof c->seal_keys)) return PJ_TLS_FAILED;
    c->seal_ready = 1;
    return PJ_TLS_OK;
}

long pj_tls_client_seal(pj_tls_connection *c, uint8_t type, const uint8_t *plaintext, size_t count, uint64_t sequence,
                        uint8_t *out, size_t capacity) {
    if (!c->seal_ready || count > 16384 || capacity < 5 + 8 + count + 16) return PJ_TLS_FAILED;
    const unsigned char *keys = c->seal_keys;
    unsigned char nonce[12], aad[13];
    memcpy(nonce, keys + 32, 4);
    for (int i = 0; i < 8; i++) nonce[4 + i] = aad[i] = (unsigned char)(sequence >> (56 - 8 * i));
    aad[8] = type; aad[9] = 3; aad[10] = 3; aad[11] = (unsigned char)(count >> 8); aad[12] = (unsigned char)count;
    size_t length = 8 + count + 16;
    out[0] = type; out[1] = 3; out[2] = 3; out[3] = (uint8_t)(length >> 8); out[4] = (uint8_t)length;
    memcpy(out + 5, nonce + 4, 8);
    EVP_CIPHER_CTX *ctx = api.cipher_ctx_new();
    if (!ctx) return PJ_TLS_FAILED;
    int ok = 0, n = 0;
    enum { GCM_SET_IVLEN = 0x9, GCM_GET_TAG = 0x10 };
    if (api.encrypt_init(ctx, api.aes_128_gcm(), NULL, NULL, NULL) == 1 && api.cipher_ctrl(ctx, GCM_SET_IVLEN, 12, NULL) == 1
        && api.encrypt_init(ctx, NULL, NULL, keys, nonce) == 1 && api.encrypt_update(ctx, NULL, &n, aad, sizeof aad) == 1
        && (count == 0 || api.encrypt_update(ctx, out + 13, &n, plaintext, (int)count) == 1)
        && api.encrypt_final(ctx, out + 13 + count, &n) == 1 && api.cipher_ctrl(ctx, GCM_GET_TAG, 16, out + 13 + count) == 1)
        ok = 1;
    api.cipher_ctx_free(ctx);
    api.err_clear();
    return ok ? (long)(5 + length) : PJ_TLS_FAILED;
}

int pj_tls_renegotiate(pj_tls_connection *c) {
    api.err_clear();
    if (api.renegotiate(c->ssl) != 1) { take_errors(c->error, sizeof c->error, "renegotiation refused"); return PJ_TLS_FAILED; }
    int r = api.do_handshake(c->ssl);
    if (r == 1) return PJ_TLS_OK;
    int o = outcome(c, r);
    return o == PJ_TLS_CLOSED ? PJ_TLS_FAILED : o;
}

int pj_tls_key_update(pj_tls_connection *c) {
    api.err_clear();
    // SSL_KEY_UPDATE_REQUESTED (1): the peer must answer with a key update of its own.
    if (api.key_update(c->ssl, 1) != 1) { take_errors(c->error, sizeof c->error, "key update refused"); return PJ_TLS_FAILED; }
    int r = api.do_handshake(c->ssl);
    if (r == 1) return PJ_TLS_OK;
    int o = outcome(c, r);
    return o == PJ_TLS_CLOSED ? PJ_TLS_FAILED : o;
}

static pj_tls_connection *connection_new(pj_tls_context *context, int client) {
    pj_tls_connection *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->ssl = api.ssl_new(context->ctx);
    c->in = api.bio_new(api.bio_s_mem());
    c->out = api.bio_new(api.bio_s_mem());
    if (!c->ssl || !c->in || !c->out) {
        if (c->ssl) api.ssl_free(c->ssl);
        if (c->in) api.bio_free(c->in);
        if (c->out) api.bio_free(c->out);
        free(c);
        return NULL;
    }
    api.set_bio(c->ssl, c->in, c->out);  // the SSL owns both BIOs from here
    if (client) api.set_connect_state(c->ssl); else api.set_accept_state(c->ssl);
    return c;
}

void pj_tls_connection_free(pj_tls_connection *c) {
    if (!c) return;
    api.ssl_free(c->ssl);
    free(c);
}

long pj_tls_feed(pj_tls_connection *c, const uint8_t *bytes, size_t count) {
    size_t done = 0;
    while (done < count) {
        int chunk = count - done > INT_MAX ? INT_MAX : (int)(count - done);
        int n = api.bio_write(c->in, bytes + done, chunk);
        if (n <= 0) break;  // a memory BIO takes everything unless memory ran out
        done += (size_t)n;
    }
    return (long)done;
}

/// Maps an SSL call's result `r` (≤ 0) to ours; on failure keeps OpenSSL's reason.
static int outcome(pj_tls_connection *c, int r) {
    switch (api.get_error(c->ssl, r)) {
    case SSL_ERROR_WANT_READ:
    case SSL_ERROR_WANT_WRITE:  // a memory BIO never refuses a write; kept for completeness
        api.err_clear();
        return PJ_TLS_WANT_MORE;
    case SSL_ERROR_ZERO_RETURN:
        api.err_clear();
        return PJ_TLS_CLOSED;
    default:
        take_errors(c->error, sizeof c->error, "the peer broke the TLS protocol");
        return PJ_TLS_FAILED;
    }
}

int pj_tls_handshake(pj_tls_connection *c) {
    api.err_clear();
    int r = api.do_handshake(c->ssl);
    if (r == 1) return PJ_TLS_OK;
    int o = outcome(c, r);
    return o == PJ_TLS_CLOSED ? PJ_TLS_FAILED : o;
}

long pj_tls_read(pj_tls_connection *c, uint8_t *out, size_t capacity) {
    api.err_clear();
    int r = api.ssl_read(c->ssl, out, capacity > INT_MAX ? INT_MAX : (int)capacity);
    if (r > 0) return r;
    return outcome(c, r);
}

long pj_tls_write(pj_tls_connection *c, const uint8_t *bytes, size_t count) {
    size_t done = 0;
    while (done < count) {
        api.err_clear();
        int chunk = count - done > INT_MAX ? INT_MAX : (int)(count - done);
        int r = api.ssl_write(c->ssl, bytes + done, chunk);
        if (r <= 0) {
            outcome(c, r);
            return PJ_TLS_FAILED;
        }
        done += (size_t)r;
    }
    return (long)done;
}

void pj_tls_shutdown(pj_tls_connection *c) {
    api.err_clear();
    api.ssl_shutdown(c->ssl);
    api.err_clear();
}

size_t pj_tls_pending_output(pj_tls_connection *c) {
    long n = api.bio_ctrl(c->out, BIO_CTRL_PENDING, 0, NULL);
    return n > 0 ? (size_t)n : 0;
}

long pj_tls_take_output(pj_tls_connection *c, uint8_t *out, size_t capacity) {
    int n = api.bio_read(c->out, out, capacity > INT_MAX ? INT_MAX : (int)capacity);
    return n > 0 ? n : 0;
}

void pj_tls_last_error(pj_tls_connection *c, char *error, size_t capacity) {
    if (error && capacity) snprintf(error, capacity, "%s", c->error[0] ? c->error : "no TLS error");
}
