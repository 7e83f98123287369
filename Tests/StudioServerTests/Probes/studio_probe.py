"""Attacks on a running `prospero studio` over loopback (issue 53), each judged by its outcome: the studio stays up, a
normal client (the page, then a WebSocket that says hello and is welcomed) is served during and after the attack, what
the attack holds is closed as its limit says, and the studio's descriptors (/proc/PID/fd) and resident memory
(VmRSS) come back near their baseline once the attack's connections are gone. Every wait is a generous bound for a
busy machine, never a figure being measured; every loop is bounded in count and time; nothing is retried.

    python3 studio_probe.py SCENARIO --port PORT --pid PID [--tls-ca CA.pem] [--token-file FILE] [limits…]

The token comes from --token-file's first line, else from $PROSPERO_STUDIO_TOKEN (none: the studio wants none).
--tls-ca says the studio serves HTTPS with a certificate for 127.0.0.1 signed by CA.pem. The limits are the ones the
studio was started with (--max-connections, --max-connections-per-address, --handshake-timeout, --header-timeout,
--idle-timeout, --write-timeout). Scenarios:

    tls-renegotiation  (--tls) a TLS 1.2 renegotiation ClientHello and close_notify in one segment, then a TCP reset,
                       and its mutations (split across segments, close_notify alone, a sealed record of garbage, a
                       forged record, a reset in the middle of a record), each --rounds times (needs pyOpenSSL)
    caps               idle connections from all over 127.0.0.0/8 up to the binding cap; the ones past it are closed on
                       arrival; the address is served again once the idle ones are gone
    timeouts           half-open TLS handshakes (with --tls), silent connections, slowloris heads, an idle keep-alive
                       connection and a WebSocket that never says hello, all held at once: each closed by its timeout
    slow-reader        (--audio browser) a WebSocket subscribed to everything that stops reading is disconnected within
                       the write timeout, the studio's memory bounded meanwhile
    tls-shutdown       (--tls) a client that stops reading in the middle of a large file and one that stops after its
                       ClientHello, then SIGINT: the studio exits within a bound; prints the time it took
    flood              a WebSocket that never says hello floods clock and ping messages: its answers stay within the
                       rate limit's rate × time + burst, and another client's ping is answered meanwhile
    malformed          a NUL byte in a header, a request target over 80 KiB, headers over 80 KiB: 400, then closed

Prints a line per check; exits 1 with `FAIL: …` at the first failure.
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import select
import signal
import socket
import ssl
import struct
import sys
import threading
import time

BOUND = 30.0  # seconds: how long anything the studio must do may take on a busy machine (a bound, not a figure)
FD_SLACK = 8  # descriptors above the baseline still counted as "back"
RSS_SLACK = 32 * 1024 * 1024  # resident bytes above the baseline still counted as "back"
RSS_PEAK = 64 * 1024 * 1024  # resident bytes above the baseline the studio may reach while an attack runs
EARLY = 0.25  # seconds: a timeout may fire this much before the client's own clock says it is due

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("scenario", choices=["tls-renegotiation", "caps", "timeouts", "slow-reader", "tls-shutdown", "flood", "malformed"])
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--pid", type=int, required=True)
parser.add_argument("--tls-ca")
parser.add_argument("--token-file")
parser.add_argument("--max-connections", type=int, default=512)
parser.add_argument("--max-connections-per-address", type=int, default=64)
parser.add_argument("--handshake-timeout", type=float, default=10)
parser.add_argument("--header-timeout", type=float, default=10)
parser.add_argument("--idle-timeout", type=float, default=30)
parser.add_argument("--write-timeout", type=float, default=10)
parser.add_argument("--rounds", type=int, default=3, help="tls-renegotiation: connections per mutation")
parser.add_argument("--large", default="/icons/icon-512.png", help="tls-shutdown: a large file the studio serves")
args = parser.parse_args()

PORT, PID = args.port, args.pid
HOST = f"127.0.0.1:{PORT}"
SCHEME = "https" if args.tls_ca else "http"
ORIGIN = f"{SCHEME}://{HOST}"
if args.token_file:
    with open(args.token_file) as f:
        TOKEN = f.readline().strip()
else:
    TOKEN = os.environ.get("PROSPERO_STUDIO_TOKEN") or None
QUERY = f"?token={TOKEN}" if TOKEN else ""
COOKIE = f"Cookie: prospero_studio={TOKEN}\r\n" if TOKEN else ""


def fail(message):
    print(f"FAIL: {message}", flush=True)
    sys.exit(1)


def check(message):
    print(f"ok: {message}", flush=True)


# MARK: The studio's process


def alive():
    try:
        with open(f"/proc/{PID}/stat") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def descriptors():
    try:
        return len(os.listdir(f"/proc/{PID}/fd"))
    except OSError:
        fail(f"the studio (pid {PID}) is gone")


def resident():
    try:
        with open(f"/proc/{PID}/status") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))
    except (OSError, StopIteration):
        fail(f"the studio (pid {PID}) is gone")


def require_alive(after):
    if not alive():
        fail(f"the studio (pid {PID}) died {after}")


def connections():
    """The studio's open TCP connections (its descriptors joined with /proc/PID/net/tcp and tcp6 by socket inode):
    the client's port → the bytes the kernel holds unsent or unacknowledged on the studio's side."""
    inodes = set()
    try:
        for fd in os.listdir(f"/proc/{PID}/fd"):
            try:
                link = os.readlink(f"/proc/{PID}/fd/{fd}")
            except OSError:
                continue
            if link.startswith("socket:["):
                inodes.add(link[8:-1])
    except OSError:
        fail(f"the studio (pid {PID}) is gone")
    found = {}
    for table in ("tcp", "tcp6"):
        try:
            with open(f"/proc/{PID}/net/{table}") as f:
                next(f)
                for line in f:
                    fields = line.split()
                    if fields[9] in inodes and fields[3] != "0A":  # 0A: listening
                        found[int(fields[2].rsplit(":", 1)[1], 16)] = int(fields[4].split(":")[0], 16)
        except OSError:
            pass
    return found


def held_ports():
    """The client-side ports of every TCP connection the studio holds open."""
    return set(connections())


def wait_for(predicate, seconds, what):
    """Polls `predicate` until it holds, at most `seconds`; fails naming `what` when it never does."""
    deadline = time.monotonic() + seconds
    while True:
        if predicate():
            return
        if time.monotonic() > deadline:
            fail(what)
        time.sleep(0.05)


# MARK: Clients


def tls_context():
    context = ssl.create_default_context(cafile=args.tls_ca)
    return context


def tcp(source="127.0.0.1", receive_buffer=None, timeout=BOUND):
    """A TCP connection to the studio from `source` (any address of 127.0.0.0/8), not wrapped."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", PORT))
    return s


def connect(source="127.0.0.1", receive_buffer=None, timeout=BOUND):
    """A connection to the studio, through its TLS handshake under --tls."""
    s = tcp(source, receive_buffer, timeout)
    if args.tls_ca:
        s = tls_context().wrap_socket(s, server_hostname="127.0.0.1")
    return s


def read_head(s, data=b""):
    """Reads up to the end of a response head: (status, headers, what came after the head)."""
    while b"\r\n\r\n" not in data:
        if len(data) > 65536:
            raise OSError("a response head over 64 KiB")
        chunk = s.recv(65536)
        if not chunk:
            raise OSError(f"the connection ended inside a response head: {data[:120]!r}")
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
    return status, headers, rest


def read_response(s):
    """One response with Content-Length: (status, body)."""
    status, headers, body = read_head(s)
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = s.recv(65536)
        if not chunk:
            raise OSError(f"the connection ended after {len(body)} of {length} body bytes")
        body += chunk
    return status, body[:length]


def get(s, path, close=False):
    """Sends a GET of `path` with the token (in the query and the cookie, as a page's second request has it)."""
    connection = "Connection: close\r\n" if close else ""
    s.sendall(f"GET {path}{QUERY} HTTP/1.1\r\nHost: {HOST}\r\n{COOKIE}{connection}\r\n".encode())


class WebSocket:
    """A minimal RFC 6455 client over a connected socket (plain or TLS): the upgrade, masked text frames out, frames in."""

    def __init__(self, s):
        self.s = s
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall((f"GET /ws{QUERY} HTTP/1.1\r\nHost: {HOST}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {ORIGIN}\r\n{COOKIE}\r\n").encode())
        status, headers, self.buffer = read_head(s)
        if status != 101:
            raise OSError(f"the upgrade got {status}")
        accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
        if headers.get("sec-websocket-accept") != accept:
            raise OSError("a wrong Sec-WebSocket-Accept")

    @staticmethod
    def frame(opcode, payload):
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))

    def send(self, message):
        self.s.sendall(self.frame(0x1, json.dumps(message).encode()))

    def receive(self, pong=True):
        """The next whole frame: (opcode, payload), or None when the connection ended. Pings are answered (unless
        another thread writes to this socket)."""
        while True:
            frame = self._parse()
            if frame is not None:
                opcode, payload = frame
                if opcode == 0x9 and pong:
                    self.s.sendall(self.frame(0xA, payload))
                    continue
                return frame
            chunk = self.s.recv(65536)
            if not chunk:
                return None
            self.buffer += chunk

    def _parse(self):
        b = self.buffer
        if len(b) < 2:
            return None
        n, at = b[1] & 0x7F, 2
        if n == 126:
            if len(b) < 4:
                return None
            n, at = struct.unpack("!H", b[2:4])[0], 4
        elif n == 127:
            if len(b) < 10:
                return None
            n, at = struct.unpack("!Q", b[2:10])[0], 10
        if len(b) < at + n:
            return None
        self.buffer = b[at + n:]
        return b[0] & 0x0F, b[at:at + n]

    def messages(self, seconds):
        """JSON text messages until `seconds` have passed (binary frames skipped); stops at the connection's end."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.s.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                frame = self.receive()
            except (socket.timeout, ssl.SSLWantReadError):
                return
            if frame is None or frame[0] == 0x8:
                return
            if frame[0] == 0x1:
                yield json.loads(frame[1])


def welcomed(ws, subscribe=("state",)):
    ws.send({"type": "hello", "client": None, "subscribe": list(subscribe)})
    for message in ws.messages(BOUND):
        if message.get("type") == "welcome":
            return True
    return False


def served(when):
    """A normal client: GET / with the token is 200, and a WebSocket's hello is welcomed."""
    try:
        with connect() as s:
            get(s, "/", close=True)
            status, _ = read_response(s)
        if status != 200:
            fail(f"{when}: a normal GET / got {status}")
        with connect() as s:
            if not welcomed(WebSocket(s)):
                fail(f"{when}: a normal WebSocket's hello got no welcome within {BOUND:.0f} s")
    except OSError as error:
        require_alive(when)
        # Why not: a crashing studio may spend many seconds in Swift's backtracer, still there but not answering.
        failed = time.monotonic()
        while alive() and time.monotonic() - failed < BOUND:
            time.sleep(0.1)
        fate = (f"the studio's process (pid {PID}) ended {time.monotonic() - failed:.1f} s later: it crashed" if not alive()
                else f"the studio's process (pid {PID}) still runs {BOUND:.0f} s later")
        fail(f"{when}: a normal client was not served: {error!r}; {fate}")
    check(f"a normal client served {when}")


def baseline():
    served("before the attack")
    fds, rss = descriptors(), resident()
    print(f"baseline: {fds} descriptors, {rss // 1024} KiB resident", flush=True)
    return fds, rss


def settle(base, what):
    """After the attack: alive, a normal client served, descriptors and memory back near their baseline."""
    fds, rss = base
    require_alive(f"after {what}")
    wait_for(lambda: descriptors() <= fds + FD_SLACK, BOUND,
             f"after {what} the studio's descriptors stayed at {descriptors()} (baseline {fds}, slack {FD_SLACK})")
    served(f"after {what}")
    grown = resident() - rss
    if grown > RSS_SLACK:
        fail(f"after {what} the studio's resident memory is {grown // 1024} KiB above its baseline (bound {RSS_SLACK // 1024} KiB)")
    check(f"after {what}: {descriptors()} descriptors (baseline {fds}), resident {grown // 1024:+d} KiB")


def closed_by_server(s, seconds):
    """Reads (and drops) what the studio sends on `s` until it closes the connection: the seconds that took, or None
    when it was still open after `seconds`."""
    started = time.monotonic()
    deadline = started + seconds
    while time.monotonic() < deadline:
        s.settimeout(max(0.05, min(1.0, deadline - time.monotonic())))
        try:
            if not s.recv(65536):
                return time.monotonic() - started
        except (socket.timeout, ssl.SSLWantReadError):
            continue
        except (ssl.SSLZeroReturnError, ssl.SSLEOFError):
            return time.monotonic() - started
        except OSError:
            return time.monotonic() - started
    return None


def reset(s):
    """Closes with a TCP reset instead of a FIN."""
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()


# MARK: 1. TLS renegotiation, close_notify and a reset


class TLS12Client:
    """A TLS 1.2 client on pyOpenSSL with memory BIOs over a real socket. It also seals records itself (the TLS 1.2
    key block from the session's master secret, AES-GCM or ChaCha20-Poly1305 from `cryptography`, pyOpenSSL's own
    dependency): OpenSSL refuses to send close_notify while its renegotiation handshake is in progress."""

    SUITES = (b"ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
              b"ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305")

    def __init__(self):
        from OpenSSL import SSL
        self.SSL = SSL
        context = SSL.Context(SSL.TLS_METHOD)
        context.set_min_proto_version(SSL.TLS1_2_VERSION)
        context.set_max_proto_version(SSL.TLS1_2_VERSION)
        context.set_cipher_list(self.SUITES)
        context.load_verify_locations(args.tls_ca)
        context.set_verify(SSL.VERIFY_PEER, lambda connection, certificate, error, depth, ok: bool(ok))
        self.connection = SSL.Connection(context, None)
        self.connection.set_connect_state()
        self.sent = b""  # every byte the client wrote, to count its records
        self.socket = tcp()
        for _ in range(16):
            try:
                self.connection.do_handshake()
                done = True
            except SSL.WantReadError:
                done = False
            self.socket.sendall(self.output())
            if done:
                break
            answer = self.socket.recv(65536)
            if not answer:
                raise OSError("the studio closed the connection in the TLS 1.2 handshake")
            self.connection.bio_write(answer)
        else:
            raise OSError("the TLS 1.2 handshake did not finish in 16 rounds")
        if self.connection.get_protocol_version_name() != "TLSv1.2":
            raise OSError(f"negotiated {self.connection.get_protocol_version_name()}")
        self._keys()

    def output(self):
        """What OpenSSL wrote since last asked."""
        data = b""
        while True:
            try:
                chunk = self.connection.bio_read(65536)
            except self.SSL.WantReadError:
                break
            if not chunk:
                break
            data += chunk
        self.sent += data
        return data

    def _keys(self):
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305
        suite = self.connection.get_cipher_name()
        digest = "sha384" if suite.endswith("SHA384") else "sha256"
        if "CHACHA20" in suite:
            key_length, iv_length, self.aead = 32, 12, ChaCha20Poly1305
        else:
            key_length, iv_length, self.aead = (32 if "AES256" in suite else 16), 4, AESGCM
        seed = b"key expansion" + self.connection.server_random() + self.connection.client_random()
        secret, block, a = self.connection.master_key(), b"", seed
        while len(block) < 2 * (key_length + iv_length):
            a = hmac.new(secret, a, digest).digest()
            block += hmac.new(secret, a + seed, digest).digest()
        self.key = block[:key_length]
        self.iv = block[2 * key_length:2 * key_length + iv_length]
        self.suite = suite

    def sequence(self):
        """The client's next write sequence number: its records after its ChangeCipherSpec."""
        types, at = [], 0
        while at + 5 <= len(self.sent):
            types.append(self.sent[at])
            at += 5 + int.from_bytes(self.sent[at + 3:at + 5], "big")
        return len(types) - 1 - max(i for i, t in enumerate(types) if t == 20)

    def seal(self, content_type, plaintext):
        """One record of `content_type` encrypted as the next of the client's, as OpenSSL would."""
        sequence = self.sequence().to_bytes(8, "big")
        aad = sequence + bytes([content_type, 3, 3]) + len(plaintext).to_bytes(2, "big")
        if len(self.iv) == 12:
            nonce = bytes(x ^ y for x, y in zip(self.iv, bytes(4) + sequence))
            body = self.aead(self.key).encrypt(nonce, plaintext, aad)
        else:
            body = sequence + self.aead(self.key).encrypt(self.iv + sequence, plaintext, aad)
        record = bytes([content_type, 3, 3]) + len(body).to_bytes(2, "big") + body
        self.sent += record
        return record

    def renegotiation(self):
        """The encrypted renegotiation ClientHello OpenSSL writes."""
        self.connection.renegotiate()
        try:
            self.connection.do_handshake()
        except self.SSL.WantReadError:
            pass
        hello = self.output()
        if not hello or hello[0] != 22:
            raise OSError(f"no renegotiation ClientHello came out: {hello[:8]!r}")
        return hello

    def close_notify(self):
        return self.seal(21, b"\x01\x00")

    def send(self, data):
        self.socket.sendall(data)


def tls_renegotiation():
    if not args.tls_ca:
        fail("tls-renegotiation needs --tls-ca (a studio started with --tls)")
    base = baseline()
    mutations = [
        ("renegotiation ClientHello + close_notify in one segment, then a reset",
         lambda c: c.send(c.renegotiation() + c.close_notify())),
        ("renegotiation ClientHello and close_notify in two segments, then a reset",
         lambda c: (c.send(c.renegotiation()), time.sleep(0.01), c.send(c.close_notify()))),
        ("renegotiation ClientHello cut in two segments + close_notify, then a reset",
         lambda c: (lambda hello: (c.send(hello[:len(hello) // 2]), time.sleep(0.01),
                                   c.send(hello[len(hello) // 2:] + c.close_notify())))(c.renegotiation())),
        ("renegotiation ClientHello alone, then a reset", lambda c: c.send(c.renegotiation())),
        ("close_notify alone, then a reset", lambda c: (c.connection.shutdown(), c.send(c.output()))),
        ("a sealed handshake record of garbage + close_notify, then a reset",
         lambda c: c.send(c.seal(22, b"\xff\x00\x00\x04\x01\x02\x03\x04") + c.close_notify())),
        ("a forged application record (not sealed), then a reset",
         lambda c: c.send(b"\x17\x03\x03\x00\x40" + os.urandom(64))),
        ("half a renegotiation ClientHello (a reset in the middle of a record)",
         lambda c: (lambda hello: c.send(hello[:len(hello) // 2]))(c.renegotiation())),
    ]
    last = "the baseline's clients"
    for name, attack in mutations:
        for round in range(args.rounds):
            try:
                client = TLS12Client()
            except OSError as error:
                require_alive(f"after {last}")
                fail(f"a TLS 1.2 handshake after {last} failed: {error!r}")
            attack(client)
            reset(client.socket)
            last = f"connection {round + 1} of {args.rounds}: {name} ({client.suite})"
            served(f"after {last}")
        require_alive(f"after {name}")
    settle(base, "the renegotiation attacks")


# MARK: 2. Connection caps


def caps():
    total, per_address = args.max_connections, args.max_connections_per_address
    cap = min(total, per_address)
    which = "per-address" if per_address <= total else "total"
    base = baseline()
    wait_for(lambda: not held_ports(), BOUND, "the studio still holds the normal client's connections")
    # All of 127.0.0.0/8 is one address block: the held connections come from three of its addresses.
    sources = ["127.0.0.1", "127.0.0.2", "127.0.0.3"]
    held = []
    try:
        for i in range(cap):
            held.append(tcp(sources[i % len(sources)]))
    except OSError as error:
        fail(f"connection {len(held) + 1} of {cap} (under the {which} cap) could not be made: {error!r}")
    ports = {s.getsockname()[1] for s in held}
    wait_for(lambda: ports <= held_ports(), BOUND,
             f"the studio does not hold all {cap} connections under its {which} cap "
             f"({len(ports & held_ports())} held)")
    check(f"{cap} idle connections from {', '.join(sources)} held (the {which} cap)")
    # Every one past the cap is closed on arrival, from 127.0.0.1 and from the rest of the block.
    extra = min(32, cap)
    for i in range(extra):
        source = ["127.0.0.1", "127.0.0.4", "127.1.2.3"][i % 3]
        try:
            s = tcp(source)
        except OSError:
            continue  # refused outright: not served either
        took = closed_by_server(s, BOUND)
        s.close()
        if took is None:
            fail(f"connection {cap + i + 1} (from {source}, past the {which} cap of {cap}) was still open after {BOUND:.0f} s")
    if not ports <= held_ports():
        fail(f"the held connections were closed by the ones past the cap ({len(ports & held_ports())} of {cap} left)")
    check(f"{extra} connections past the {which} cap of {cap} closed on arrival; the {cap} held ones still open")
    # Another address block is served meanwhile: IPv6 ::1, when the studio listens there.
    try:
        six = socket.create_connection(("::1", PORT), timeout=5)
        six.close()
        print("note: the studio listens on ::1 too; its blocks are not probed here", flush=True)
    except OSError:
        print("skip: the studio does not listen on ::1 (another address block cannot be probed on loopback)", flush=True)
    # The prober closes half; the other half is left to the header timeout.
    gone = {s.getsockname()[1] for s in held[: cap // 2]}
    for s in held[: cap // 2]:
        s.close()
    left = {s.getsockname()[1] for s in held[cap // 2:]}
    wait_for(lambda: not (gone & held_ports()), BOUND, "the studio still holds connections the prober closed")
    served(f"while {len(left)} idle connections are held (below the cap)")
    wait_for(lambda: not (left & held_ports()), BOUND + args.header_timeout,
             f"{len(left & held_ports())} silent connections outlived the header timeout ({args.header_timeout} s) by {BOUND:.0f} s")
    for s in held[cap // 2:]:
        s.close()
    check(f"{cap // 2} closed by the prober, {cap - cap // 2} cut by the header timeout")
    settle(base, "the connection caps")


# MARK: 3. Timeouts


class Attacker:
    """One connection of the timeouts scenario: what it is, when its timeout started, what it must wait for."""

    def __init__(self, kind, started, s, timeout, drip=b""):
        self.kind, self.s, self.timeout, self.drip = kind, s, timeout, drip
        self.started = started  # taken before connecting: the studio's timer cannot have started earlier
        self.closed_after = None
        self.port = (s.getsockname()[1])
        s.setblocking(False)


def half_open_handshake():
    """A TCP connection that sent the first half of a real ClientHello and stops."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = tls_context().wrap_bio(incoming, outgoing, server_hostname="127.0.0.1")
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    hello = outgoing.read()
    s = tcp()
    s.sendall(hello[: len(hello) // 2])
    return s


def timeouts():
    base = baseline()
    count = 4
    attackers = []
    if args.tls_ca:
        for _ in range(count):
            attackers.append(Attacker("half-open TLS handshake", time.monotonic(), half_open_handshake(), args.handshake_timeout))
    for _ in range(count):
        attackers.append(Attacker("silent connection", time.monotonic(), connect(), args.header_timeout))
    head = f"GET / HTTP/1.1\r\nHost: {HOST}\r\nX-Slow: ".encode() + b"a" * 4096
    for _ in range(count):
        attackers.append(Attacker("slowloris head", time.monotonic(), connect(), args.header_timeout, drip=head))
    for _ in range(count):
        started, s = time.monotonic(), connect()
        get(s, "/")
        status, _ = read_response(s)
        if status != 200:
            fail(f"a keep-alive GET / got {status}")
        attackers.append(Attacker("keep-alive connection idle after its response", started, s, args.idle_timeout))
    for _ in range(count):
        started, s = time.monotonic(), connect()
        WebSocket(s)
        attackers.append(Attacker("WebSocket that never says hello", started, s, args.idle_timeout))
    check(f"{len(attackers)} connections held: " + ", ".join(sorted({a.kind for a in attackers})))
    served("while they are held")
    # One loop over all of them: a byte every half second for each slowloris, everything the studio sends read.
    deadline = time.monotonic() + BOUND + max(a.timeout for a in attackers)
    next_drip = time.monotonic()
    while time.monotonic() < deadline and any(a.closed_after is None for a in attackers):
        now = time.monotonic()
        if now >= next_drip:
            next_drip = now + 0.5
            for a in attackers:
                if a.drip and a.closed_after is None:
                    try:
                        a.s.send(a.drip[:1])
                        a.drip = a.drip[1:] or b"a"
                    except (ssl.SSLWantWriteError, ssl.SSLWantReadError, BlockingIOError):
                        pass
                    except OSError:
                        a.closed_after = time.monotonic() - a.started
        open_ones = [a for a in attackers if a.closed_after is None]
        readable, _, _ = select.select([a.s for a in open_ones], [], [], max(0.01, min(0.1, next_drip - time.monotonic())))
        for a in open_ones:
            if a.s not in readable and not (isinstance(a.s, ssl.SSLSocket) and a.s.pending()):
                continue
            try:
                while True:
                    if not a.s.recv(65536):
                        a.closed_after = time.monotonic() - a.started
                        break
            except (ssl.SSLWantReadError, BlockingIOError):
                pass
            except OSError:
                a.closed_after = time.monotonic() - a.started
    for a in attackers:
        if a.closed_after is None:
            fail(f"a {a.kind} was still open {BOUND:.0f} s past its timeout of {a.timeout} s")
        if a.closed_after < a.timeout - EARLY:
            fail(f"a {a.kind} was closed after {a.closed_after:.2f} s, before its timeout of {a.timeout} s")
    ports = {a.port for a in attackers}
    wait_for(lambda: not (ports & held_ports()), BOUND, "the studio still holds sockets of connections it closed")
    for kind in sorted({a.kind for a in attackers}):
        times = [a.closed_after for a in attackers if a.kind == kind]
        timeout = next(a.timeout for a in attackers if a.kind == kind)
        check(f"{len(times)} × {kind}: closed by the studio after its {timeout} s timeout "
              f"({min(times):.2f}…{max(times):.2f} s)")
    for a in attackers:
        a.s.close()
    settle(base, "the timeouts")


# MARK: 4. A slow reader


def slow_reader():
    # The baseline counts the browser audio's render thread and what a listener costs: one listens and goes first.
    with connect() as s:
        ws = WebSocket(s)
        if not welcomed(ws, subscribe=()):
            fail("a listener's hello got no welcome")
        frames = sum(1 for _ in ws.messages(1.0))
    base = baseline()
    s = connect(receive_buffer=2048)
    ws = WebSocket(s)
    port = s.getsockname()[1]
    # Omitting `subscribe` subscribes to everything: state, status, meters, scope, spectrum, frames, audio (PCM).
    s.sendall(WebSocket.frame(0x1, json.dumps({"type": "hello", "client": None}).encode()))
    check(f"a WebSocket with a {s.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)}-byte receive buffer said hello "
          f"subscribed to everything and stopped reading")
    wait_for(lambda: port in held_ports(), BOUND, "the studio does not hold the slow reader's connection")
    started = time.monotonic()
    peak = resident()
    served_during = False
    while port in held_ports():
        peak = max(peak, resident())
        if peak > base[1] + RSS_PEAK:
            fail(f"the studio grew to {peak // 1024} KiB while a client did not read (baseline {base[1] // 1024} KiB)")
        if time.monotonic() - started > args.write_timeout + BOUND:
            fail(f"the slow reader was still connected {args.write_timeout + BOUND:.0f} s after it stopped reading "
                 f"(write timeout {args.write_timeout} s)")
        if not served_during:
            served("while a client does not read")
            served_during = True
        time.sleep(0.1)
    took = time.monotonic() - started
    if not served_during:
        served("just after the slow reader was cut")
    check(f"the slow reader was disconnected {took:.1f} s after it stopped reading (write timeout {args.write_timeout} s); "
          f"the studio peaked at {(peak - base[1]) // 1024:+d} KiB resident")
    s.close()
    settle(base, "the slow reader")


# MARK: 5. Shutdown under TLS


def tls_shutdown():
    if not args.tls_ca:
        fail("tls-shutdown needs --tls-ca (a studio started with --tls)")
    served("before the stop")
    with connect() as s:
        get(s, args.large, close=True)
        status, body = read_response(s)
    if status != 200 or len(body) < 65536:
        fail(f"{args.large}: {status}, {len(body)} bytes (the probe needs a file of 64 KiB or more)")
    s = connect(receive_buffer=2048)
    s.settimeout(2)
    request = f"GET {args.large}{QUERY} HTTP/1.1\r\nHost: {HOST}\r\n{COOKIE}\r\n".encode()
    sent = 0
    try:
        for _ in range(64):
            s.sendall(request)
            sent += 1
    except (socket.timeout, OSError):
        pass
    # Some of the first answer is read, then nothing: the studio's writes wait on this client.
    s.settimeout(BOUND)
    first = s.recv(4096)
    if not first.startswith(b"HTTP/1.1 200"):
        fail(f"the large file's answer began {first[:40]!r}")
    port = s.getsockname()[1]
    wait_for(lambda: connections().get(port, 0) > 0, BOUND, "the studio has nothing queued for the client that stopped reading")
    check(f"a TLS client asked for {args.large} {sent} times ({len(body)} bytes each), read {len(first)} bytes and stopped "
          f"reading; the studio's socket has {connections().get(port)} bytes queued")
    # And one that sent its whole ClientHello and goes no further (neither reads the answer nor continues): before the
    # fix this alone held the stop for good.
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    stalled_tls = tls_context().wrap_bio(incoming, outgoing, server_hostname="127.0.0.1")
    try:
        stalled_tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    stalled = tcp()
    stalled.sendall(outgoing.read())
    wait_for(lambda: stalled.getsockname()[1] in held_ports(), BOUND, "the studio does not hold the stalled handshake")
    check("a TLS client sent its ClientHello and stopped there")
    started = time.monotonic()
    os.kill(PID, signal.SIGINT)
    bound = 10.0
    wait_for(lambda: not alive(), bound, f"the studio was still running {bound:.0f} s after SIGINT with a TLS client that "
             f"does not read and one stalled in its handshake")
    took = time.monotonic() - started
    s.close()
    stalled.close()
    print(f"figure: the studio stopped {took:.2f} s after SIGINT with a TLS client that does not read and one stalled "
          f"in its handshake", flush=True)
    check("the studio stopped")


# MARK: 6. A flood before hello


def flood():
    base = baseline()
    rate, burst = 200, 400
    flooder = connect()
    ws = WebSocket(flooder)
    answered, limited, other = [0], [0], []
    ended = threading.Event()

    def read():
        """Counts the flooder's answers until it is quiet for 2 s after the flood (or closed), bounded."""
        flooder.settimeout(2)
        deadline = time.monotonic() + 2 * BOUND
        while time.monotonic() < deadline:
            try:
                frame = ws.receive(pong=False)
            except (socket.timeout, ssl.SSLWantReadError):
                if ended.is_set():
                    break
                continue
            except OSError:
                break
            if frame is None or frame[0] == 0x8:
                break
            if frame[0] == 0x1:
                message = json.loads(frame[1])
                if message.get("type") == "error" and message.get("code") == "rate_limited":
                    limited[0] += 1
                else:
                    answered[0] += 1
                    reader.last = time.monotonic()

    reader = threading.Thread(target=read, daemon=True)
    reader.last = None
    started = time.monotonic()
    reader.start()
    sent = 0
    with connect() as s:
        pinger = WebSocket(s)
        if not welcomed(pinger):
            fail("the other client's hello got no welcome")
        seconds = 2.0
        next_ping = time.monotonic()
        try:
            while time.monotonic() - started < seconds:
                batch = b"".join(WebSocket.frame(0x1, json.dumps(m).encode()) for m in
                                 [{"type": "clock", "t": 1000.0 + sent}, {"type": "ping", "t": 2000.0 + sent}] * 50)
                flooder.sendall(batch)
                sent += 100
                if time.monotonic() >= next_ping:
                    next_ping = time.monotonic() + 0.5
                    other.append(("sent", time.monotonic()))
                    pinger.send({"type": "ping", "t": 42.0})
                    for message in pinger.messages(BOUND):
                        if message.get("type") == "pong" and message.get("t") == 42.0:
                            other.append(("pong", time.monotonic()))
                            break
                    else:
                        fail("another client's ping was not answered within the bound during the flood")
        except OSError as error:
            print(f"note: the studio closed the flooder after {sent} messages ({error!r})", flush=True)
        ended.set()
        reader.join(2 * BOUND + 5)
        if reader.is_alive():
            fail("the flooder's reader did not end")
    window = (reader.last or started) - started  # from the first message sent to the last answer read
    allowed = burst + rate * window + 10  # 10: the limiter's and this clock's readings are not taken at one instant
    pongs = sum(1 for kind, _ in other if kind == "pong")
    check(f"another client's ping answered {pongs} times during the flood")
    if answered[0] > allowed:
        fail(f"{sent} messages before hello: {answered[0]} answered in {window:.1f} s, over the limit's "
             f"{burst} + {rate}/s × {window:.1f} s = {allowed:.0f}")
    if limited[0] == 0:
        fail(f"{sent} messages before hello: {answered[0]} answered and no rate_limited error")
    check(f"{sent} clock and ping messages before hello: {answered[0]} answered in {window:.1f} s "
          f"(at most {allowed:.0f}), {limited[0]} rate_limited errors")
    flooder.close()
    settle(base, "the flood")


# MARK: 7. Malformed requests


def exchange(s, request):
    """Sends `request` while reading what comes back (the studio may answer and close before it is all sent), in one
    thread (an SSL object is not for two): (what came back, whether the studio closed the connection)."""
    s.setblocking(False)
    data, ended, at = b"", False, 0
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline and not ended and len(data) < 1 << 20:
        readable, writable, _ = select.select([s], [s] if at < len(request) else [], [], 0.1)
        if writable:
            try:
                at += s.send(request[at:at + 16384])
            except (ssl.SSLWantWriteError, ssl.SSLWantReadError, BlockingIOError):
                pass
            except OSError:
                at = len(request)  # the studio closed its side: nothing more goes
        if readable or (isinstance(s, ssl.SSLSocket) and s.pending()):
            try:
                chunk = s.recv(65536)
                data += chunk
                ended = not chunk
            except (ssl.SSLWantReadError, ssl.SSLWantWriteError, BlockingIOError):
                pass
            except OSError:
                ended = True
    s.close()
    return data, ended


def malformed():
    base = baseline()
    requests = [
        ("a NUL byte in a header", f"GET / HTTP/1.1\r\nHost: {HOST}\r\nX-A: b\0c\r\n\r\n".encode()),
        ("a request target over 80 KiB", b"GET /" + b"a" * (90 * 1024) + f" HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()),
        ("headers over 80 KiB", f"GET / HTTP/1.1\r\nHost: {HOST}\r\n".encode()
         + b"".join(f"X-Pad-{i}: ".encode() + b"a" * 1000 + b"\r\n" for i in range(90)) + b"\r\n"),
        ("one header over 80 KiB", f"GET / HTTP/1.1\r\nHost: {HOST}\r\nX-A: ".encode() + b"a" * (90 * 1024) + b"\r\n\r\n"),
    ]
    for name, request in requests:
        data, ended = exchange(connect(), request)
        status = data.split(b"\r\n", 1)[0]
        if not status.startswith(b"HTTP/1.1 400"):
            fail(f"{name}: the studio answered {status[:80]!r}, not 400")
        if not ended:
            fail(f"{name}: 400, but the connection was still open after {BOUND:.0f} s")
        check(f"{name}: {status.decode('latin-1')}, then closed")
    settle(base, "the malformed requests")


{"tls-renegotiation": tls_renegotiation, "caps": caps, "timeouts": timeouts, "slow-reader": slow_reader,
 "tls-shutdown": tls_shutdown, "flood": flood, "malformed": malformed}[args.scenario]()
print("OK", flush=True)
