"""Attacks on a running `prospero studio` over loopback, each checked by its outcome: the studio closes what it must,
serves a normal client after, and its descriptors and memory come back to where they were. Every wait is a bound for
a busy machine, never a figure measured; every loop is bounded in count and time.

    python3 studio_attacks.py plain PORT PID   (a studio with --audio browser --header-timeout 1 --idle-timeout 2
                                                --write-timeout 2 --max-connections-per-address 16)
    python3 studio_attacks.py tls PORT PID     (a studio with --tls: a client that does not read, then SIGINT)

Prints a line per check; exits 1 with `FAIL: …` at the first failure.
"""
import json
import os
import signal
import socket
import ssl
import sys
import time

import websocket  # websocket-client

mode, port, pid = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
PER_ADDRESS = 16
BOUND = 30  # seconds: how long a 1–2 s timeout may take to show on a busy machine


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def descriptors():
    return len(os.listdir(f"/proc/{pid}/fd"))


def resident():
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))


def alive():
    return os.path.exists(f"/proc/{pid}") and open(f"/proc/{pid}/stat").read().split()[2] != "Z"


def connect():
    return socket.create_connection(("127.0.0.1", port), timeout=BOUND)


def closed_within(s, seconds=BOUND):
    """True when the server closes `s` (EOF or reset) within `seconds`, reading and dropping what it sends."""
    s.settimeout(1)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if not s.recv(65536):
                return True
        except socket.timeout:
            continue
        except OSError:
            return True
    return False


def http_status(request):
    s = connect()
    try:
        s.sendall(request)
        data = b""
        while b"\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        return data.split(b"\r\n", 1)[0].decode("latin-1")
    finally:
        s.close()


def served():
    """A normal client: the page, then a WebSocket that says hello and is welcomed."""
    status = http_status(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    if not status.startswith("HTTP/1.1 200"):
        fail(f"a normal GET / got {status!r}")
    ws = websocket.create_connection(f"ws://127.0.0.1:{port}/ws", timeout=BOUND, origin=f"http://127.0.0.1:{port}")
    try:
        ws.send(json.dumps({"type": "hello", "subscribe": ["state"]}))
        deadline = time.monotonic() + BOUND
        while time.monotonic() < deadline:
            message = ws.recv()
            if isinstance(message, str) and json.loads(message).get("type") == "welcome":
                return
        fail("a normal WebSocket got no welcome")
    finally:
        ws.close()


def settle(baseline, slack=6):
    """Waits until the studio's descriptors are back within `slack` of `baseline`."""
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline:
        if descriptors() <= baseline + slack:
            return
        time.sleep(0.2)
    fail(f"descriptors stayed at {descriptors()} (baseline {baseline})")


def plain():
    served()
    base_fds, base_rss = descriptors(), resident()
    print(f"baseline: {base_fds} descriptors, {base_rss // 1024} KB resident")

    # Malformed requests: 400 and closed.
    for name, request in [("a NUL byte in a header", b"GET / HTTP/1.1\r\nHost: x\r\nX-A: b\x00c\r\n\r\n"),
                          ("a target over 80 KiB", b"GET /" + b"a" * 90_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"),
                          ("headers over 80 KiB", b"GET / HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 90_000 + b"\r\n\r\n")]:
        s = connect()
        try:
            s.sendall(request)
        except OSError:
            pass
        data = b""
        s.settimeout(BOUND)
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
        s.close()
        if not data.startswith(b"HTTP/1.1 400"):
            fail(f"{name}: {data[:80]!r}, not a 400")
    print("malformed requests: 400 and closed")

    # The per-address cap: all of loopback is one address; one connection past the cap is closed at once.
    connected_at = time.monotonic()
    held = [connect() for _ in range(PER_ADDRESS)]
    time.sleep(0.3)
    extra = connect()
    if not closed_within(extra, 5):
        fail(f"connection {PER_ADDRESS + 1} from loopback was not closed")
    extra.close()
    # The held ones said nothing: the header timeout (1 s) closes them, and the address is served again.
    for s in held:
        if not closed_within(s):
            fail("a silent connection outlived the header timeout")
        s.close()
    if time.monotonic() - connected_at < 0.9:
        fail("silent connections were closed before the header timeout")
    served()
    print(f"per-address cap: the {PER_ADDRESS + 1}th closed on arrival; silent ones cut by the header timeout; served after")

    # Slowloris: a head a byte at a time never completes within the header timeout.
    s = connect()
    s.settimeout(0.25)
    head = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode() + b"a" * 200
    deadline, cut = time.monotonic() + BOUND, False
    for byte in head:
        if time.monotonic() > deadline:
            break
        try:
            s.send(bytes([byte]))
            if s.recv(4096) == b"":
                cut = True
                break
        except socket.timeout:
            continue
        except OSError:
            cut = True
            break
    s.close()
    if not cut:
        fail("a head sent a byte at a time was never cut")
    print("slowloris: cut")

    # Keep-alive: idle after its answer, the connection is closed by the idle timeout.
    s = connect()
    s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    if not closed_within(s):
        fail("an idle keep-alive connection was never closed")
    s.close()
    print("keep-alive: closed when idle")

    # A WebSocket that never says hello is closed by the idle timeout.
    ws = websocket.create_connection(f"ws://127.0.0.1:{port}/ws", timeout=BOUND, origin=f"http://127.0.0.1:{port}")
    ws.settimeout(BOUND)
    try:
        while True:
            ws.recv()
    except (websocket.WebSocketConnectionClosedException, websocket.WebSocketTimeoutException, OSError):
        pass
    if ws.connected and ws.sock is not None:
        fail("a WebSocket without hello was not closed")
    print("WebSocket without hello: closed")

    # Before hello, a flood of pings is rate-limited like a client's (200/s, bursts of 400), and another client is
    # answered meanwhile.
    flood = websocket.create_connection(f"ws://127.0.0.1:{port}/ws", timeout=BOUND, origin=f"http://127.0.0.1:{port}")
    sent_from = time.monotonic()
    for i in range(3000):
        flood.send('{"type":"ping","t":1}')
    served()
    pongs = limited = 0
    flood.settimeout(1)
    try:
        while True:
            message = json.loads(flood.recv())
            if message.get("type") == "pong":
                pongs += 1
            elif message.get("code") == "rate_limited":
                limited += 1
    except (websocket.WebSocketTimeoutException, websocket.WebSocketConnectionClosedException, OSError):
        pass
    window = time.monotonic() - sent_from
    flood.close()
    if pongs > 400 + 200 * window + 5 or limited == 0:
        fail(f"3000 pings before hello: {pongs} answered in {window:.1f} s, {limited} rate_limited errors")
    print(f"flood before hello: {pongs} of 3000 answered, rate_limited said {limited} times")

    # A listener that stops reading (a tiny receive window) is disconnected by the write timeout.
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    s.settimeout(BOUND)
    s.connect(("127.0.0.1", port))
    slow = websocket.WebSocket()
    slow.connect(f"ws://127.0.0.1:{port}/ws", socket=s, origin=f"http://127.0.0.1:{port}")
    slow.send(json.dumps({"type": "hello", "subscribe": ["audio", "meters", "scope", "spectrum", "state"]}))
    # Counted once the stream runs (browser audio's render thread and its descriptors are up by then): the socket
    # the server frees is one fewer than this.
    time.sleep(0.5)
    before = descriptors()
    peak = resident()
    deadline = time.monotonic() + 2 * BOUND
    while time.monotonic() < deadline and descriptors() >= before:
        peak = max(peak, resident())
        time.sleep(0.2)
    if descriptors() >= before:
        fail("a WebSocket that stopped reading kept its socket on the server")
    slow.sock.close()
    if peak > base_rss + 64 * 1024 * 1024:
        fail(f"the studio grew to {peak // 1024} KB while a client did not read (baseline {base_rss // 1024} KB)")
    print(f"listener that stopped reading: disconnected; peak {peak // 1024} KB resident")

    settle(base_fds)
    served()
    if not alive():
        fail("the studio died")
    grown = resident() - base_rss
    if grown > 32 * 1024 * 1024:
        fail(f"resident memory {grown // 1024} KB above its baseline after the attacks")
    print(f"after: {descriptors()} descriptors (baseline {base_fds}), {grown // 1024:+d} KB resident; OK")


def tls():
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    raw.settimeout(BOUND)
    raw.connect(("127.0.0.1", port))
    client = ctx.wrap_socket(raw)
    # Many requests for the largest page, none of the answers read: the server's writes wait on this client.
    request = f"GET /icons/icon-512.png HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    client.settimeout(2)
    try:
        for _ in range(200):
            client.send(request)
    except (socket.timeout, OSError):
        pass
    time.sleep(1)
    started = time.monotonic()
    os.kill(pid, signal.SIGINT)
    deadline = started + BOUND
    while time.monotonic() < deadline and alive():
        time.sleep(0.05)
    if alive():
        fail("the studio under --tls did not stop while a client did not read")
    print(f"--tls stop with a client that does not read: {time.monotonic() - started:.2f} s")
    client.close()


plain() if mode == "plain" else tls()
