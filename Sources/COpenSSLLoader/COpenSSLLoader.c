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

pj_tls_connection *pj_tls_client_connection_new(pj_tls_context *context) { return connection_new(context, 1); }

int pj_tls_renegotiate(pj_tls_connection *c) {
    api.err_clear();
    if (api.renegotiate(c->ssl) != 1) { take_errors(c->error, sizeof c->error, "renegotiation refused"); return PJ_TLS_FAILED; }
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
