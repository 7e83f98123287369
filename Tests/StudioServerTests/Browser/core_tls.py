"""The studio's HTTPS as any TLS client sees it (Python's ssl, on the system's OpenSSL): files come whole over one
keep-alive connection and over 16 at once, TLS 1.0 and 1.1 are refused and so are TLS 1.2's suites without forward
secrecy or AEAD, a hostile or broken handshake only ends its own connection, a client that closes properly (or only
half-closes) gets close_notify back, and the server serves on after all of it.

    python3 core_tls.py PORT CA.pem TOKEN RESOURCE_DIR PATH…      (each PATH is served from RESOURCE_DIR/PATH)
"""
import concurrent.futures
import os
import socket
import ssl
import sys
import time

port, ca, token, root = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
paths = sys.argv[5:]


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def context(maximum=None):
    c = ssl.create_default_context(cafile=ca)
    if maximum is not None:
        c.minimum_version = ssl.TLSVersion.MINIMUM_SUPPORTED
        c.maximum_version = maximum
        c.set_ciphers("DEFAULT:@SECLEVEL=0")
    return c


def connect(maximum=None):
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    return context(maximum).wrap_socket(raw, server_hostname="127.0.0.1")


def read_response(tls):
    """One HTTP/1.1 response with Content-Length: (status, headers, body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = tls.recv(65536)
        if not chunk:
            fail(f"the connection ended inside a response head: {data[:200]!r}")
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    if "content-length" not in headers:
        fail(f"no Content-Length in {lines}")
    length = int(headers["content-length"])
    while len(body) < length:
        chunk = tls.recv(65536)
        if not chunk:
            fail(f"the connection ended after {len(body)} of {length} body bytes")
        body += chunk
    return status, headers, body[:length]


def get(tls, path):
    tls.sendall(f"GET /{path}?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    return read_response(tls)


def expect_file(tls, path):
    status, _, body = get(tls, path)
    with open(os.path.join(root, path), "rb") as f:
        want = f.read()
    if status != 200 or body != want:
        fail(f"/{path}: status {status}, {len(body)} bytes, expected 200 and the file's {len(want)} bytes")
    return len(body)


# Every file over one keep-alive connection, twice.
with connect() as tls:
    if tls.version() not in ("TLSv1.2", "TLSv1.3"):
        fail(f"negotiated {tls.version()}")
    total = sum(expect_file(tls, p) for p in paths + paths)
    print(f"keep-alive: {2 * len(paths)} files, {total} bytes over {tls.version()} ({tls.cipher()[0]})")


def one_connection(_):
    with connect() as tls:
        return sum(expect_file(tls, p) for p in paths)


with concurrent.futures.ThreadPoolExecutor(16) as pool:
    sizes = list(pool.map(one_connection, range(16)))
print(f"16 connections at once: {sum(sizes)} bytes")

# Old protocols: refused in the handshake.
for version in (ssl.TLSVersion.TLSv1, ssl.TLSVersion.TLSv1_1):
    try:
        with connect(maximum=version) as tls:
            fail(f"{version.name} was accepted ({tls.version()})")
    except (ssl.SSLError, ConnectionResetError, OSError) as error:
        print(f"{version.name} refused: {type(error).__name__}")


def ends_within(payload, seconds=5, what=""):
    """Sends raw bytes; the server must close the connection (an alert first is fine) within `seconds`."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=seconds)
    try:
        raw.sendall(payload)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                chunk = raw.recv(4096)
            except ConnectionResetError:
                return
            if not chunk:
                return
        fail(f"{what}: the connection was still open after {seconds} s")
    except socket.timeout:
        fail(f"{what}: the connection was still open after {seconds} s")
    finally:
        raw.close()


# TLS 1.2 offers forward-secret AEAD suites only: no RSA key exchange, no CBC, no SHA-1 MACs.
for suite in ("AES128-SHA", "AES256-GCM-SHA384", "ECDHE-RSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA", "ECDHE-RSA-AES128-SHA256"):
    weak = context(maximum=ssl.TLSVersion.TLSv1_2)
    weak.set_ciphers(suite + ":@SECLEVEL=0")
    try:
        with weak.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=10), server_hostname="127.0.0.1") as tls:
            fail(f"TLS 1.2 with {suite} was accepted ({tls.cipher()[0]})")
    except (ssl.SSLError, ConnectionResetError, OSError):
        pass
with connect(maximum=ssl.TLSVersion.TLSv1_2) as tls:
    suite = tls.cipher()[0]
    if not suite.startswith("ECDHE-") or not ("GCM" in suite or "CHACHA20" in suite):
        fail(f"TLS 1.2 negotiated {suite}")
    print(f"TLS 1.2: {suite}; RSA key exchange, CBC and SHA-1 suites refused")


def records(data):
    """The TLS record types in raw bytes from the server."""
    types, at = [], 0
    while at + 5 <= len(data):
        types.append(data[at])
        at += 5 + int.from_bytes(data[at + 3:at + 5], "big")
    return types


# A client that half-closes (TCP FIN, no close_notify) after its answer gets close_notify before the socket closes.
with connect(maximum=ssl.TLSVersion.TLSv1_2) as tls:
    expect_file(tls, paths[0])
    raw = socket.socket(fileno=os.dup(tls.fileno()))
    raw.shutdown(socket.SHUT_WR)
    raw.settimeout(10)
    rest = b""
    while True:
        chunk = raw.recv(65536)
        if not chunk:
            break
        rest += chunk
    raw.close()
    if records(rest)[-1:] != [21]:
        fail(f"after a half-close the server sent records {records(rest)}, not an alert (close_notify) last")
print("half-close answered with close_notify")

# A handshake record of garbage, a record claiming 16 KB then cut short by the client, random bytes after 0x16.
ends_within(b"\x16\x03\x01\x00\x20" + bytes(range(32)), what="a garbage ClientHello")
ends_within(b"\x16\x03\x03\xff\xff" + os.urandom(3000), what="an oversized handshake record")
ends_within(b"\x16" + os.urandom(5000), what="random bytes after 0x16")
raw = socket.create_connection(("127.0.0.1", port), timeout=5)
raw.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03")
raw.close()
print("hostile handshakes: each connection closed")

# A proper goodbye: the client's close_notify is answered with the server's (unwrap returns only then).
with connect() as tls:
    expect_file(tls, paths[0])
    tls.settimeout(5)
    tls.unwrap()
print("close_notify answered")

# And the server still serves.
with connect() as tls:
    expect_file(tls, paths[0])
print("OK")
